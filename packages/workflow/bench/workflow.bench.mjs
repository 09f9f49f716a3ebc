// Benchmarks of @bullswarm/workflow (targets from the brief; numbers go to docs/benchmarks.md).
//
//   pnpm --filter @bullswarm/workflow bench      (or: node bench/workflow.bench.mjs [items])
//
// Needs the built dist (`npx turbo run build --filter=@bullswarm/workflow...`) and the built sim
// CLI (the echo connector runs `bullswarm-sim --format text`). Every measurement runs in its own
// child process, so its peak RSS is its own.
//
// 1. Fan-out overhead: the same N items (default 1,000) on one `echo` pool at concurrency 16,
//    (a) through the engine (`startWorkflow`, one fan-out step) and (b) through `dispatchTask`
//    directly under a 16-wide limiter (the baseline: routing, ledger, spawn, parse — everything but
//    the engine). Engine overhead per item = (engine wall − baseline wall) / N; this is what the
//    engine adds: templating, fingerprints, tree snapshots for `files`, events, state writes, the
//    limiter. Also printed: each mode's own CPU time per item (this process only, not the agents),
//    the connector's own time (Σ attempt wall time / 16, the other method the brief allows), and
//    peak RSS. Target: ≤ 3 ms per item, RSS < 150 MB.
// 2. Resume: a run of N items stopped (AbortSignal) once 90% have verdicts, then `resumeWorkflow`:
//    time from the call to the first remaining item starting. Target: < 1 s at 1,000 items.
// 3. Validation of a 10,000-step program (`validateProgram`). Target: < 1 s.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const [mode = 'all', countArg] = process.argv.slice(2);
const count = Number(countArg ?? (mode === 'all' ? 1000 : 1000));
const CONCURRENCY = 16;

function makeHome() {
  const root = mkdtempSync(join(tmpdir(), 'bullswarm-bench-workflow-'));
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'README.md'), '# bench\n');
  writeFileSync(
    join(home, 'state.json'),
    JSON.stringify({
      version: 1,
      pools: [
        {
          id: 'echo:a',
          connector: 'echo',
          account: 'a',
          enabled: true,
          models: {},
          addedAt: new Date().toISOString(),
        },
      ],
      assignments: {},
      config: { inflightPenaltyPct: 3, connectors: [] },
    }),
  );
  return { root, home, work };
}

function fanOutProgram(n) {
  return {
    schemaVersion: 'bullswarm.workflow.program.v3',
    name: 'bench',
    settings: { concurrency: CONCURRENCY },
    steps: [
      { id: 'each', prompt: 'item {{item}}', forEach: { items: Array.from({ length: n }, (_, i) => i) } },
    ],
  };
}

function attemptSeconds(attempts) {
  let ms = 0;
  for (const attempt of attempts) ms += attempt.endedAt - attempt.startedAt;
  return ms;
}

function usage(startCpu) {
  const cpu = process.cpuUsage(startCpu);
  return { cpuMs: (cpu.user + cpu.system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

async function fanOutEngine(n) {
  const workflow = await import('../dist/index.js');
  const { openRuntime } = await import('@bullswarm/dispatch');
  const { root, home, work } = makeHome();
  const runtime = await openRuntime({ home, env: { PATH: process.env.PATH ?? '' }, createStore: true });
  const result0 = workflow.validateProgram(fanOutProgram(n));
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const result = await workflow.startWorkflow({ runtime, program: result0.program, cwd: work });
  const wallMs = performance.now() - start;
  const items = result.state.steps[0].items;
  const ok = items.filter((item) => item.status === 'ok').length;
  const attemptsMs = attemptSeconds(items.flatMap((item) => item.attempts));
  runtime.close();
  rmSync(root, { recursive: true, force: true });
  return { mode: 'engine', n, ok, wallMs, attemptsMs, ...usage(cpu0) };
}

async function fanOutBaseline(n) {
  const { openRuntime, dispatchTask } = await import('@bullswarm/dispatch');
  const { Limiter } = await import('../dist/index.js');
  const { root, home, work } = makeHome();
  const runtime = await openRuntime({ home, env: { PATH: process.env.PATH ?? '' }, createStore: true });
  const limiter = new Limiter(CONCURRENCY);
  const outputDir = join(root, 'out');
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const results = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const release = await limiter.acquire();
      try {
        return await dispatchTask(runtime, {
          action: `each.${i}`,
          prompt: `item ${i}`,
          lane: 'analyze',
          tier: 'medium',
          cwd: work,
          outputDir,
          kind: 'workflow-step',
          retryAttempts: 1,
          throttlePolicy: 'backoff',
        });
      } finally {
        release();
      }
    }),
  );
  const wallMs = performance.now() - start;
  const ok = results.filter((result) => result.ok).length;
  const attemptsMs = attemptSeconds(results.flatMap((result) => result.attempts));
  runtime.close();
  rmSync(root, { recursive: true, force: true });
  return { mode: 'baseline', n, ok, wallMs, attemptsMs, ...usage(cpu0) };
}

async function resumeBench(n) {
  const workflow = await import('../dist/index.js');
  const { openRuntime } = await import('@bullswarm/dispatch');
  const { root, home, work } = makeHome();
  const runtime = await openRuntime({ home, env: { PATH: process.env.PATH ?? '' }, createStore: true });
  const stopAt = Math.floor(n * 0.9);
  const abort = new AbortController();
  let verdicts = 0;
  const first = await workflow.startWorkflow({
    runtime,
    program: workflow.validateProgram(fanOutProgram(n)).program,
    cwd: work,
    signal: abort.signal,
    onEvent: (event) => {
      if (event.type === 'unit.finished' && ++verdicts >= stopAt) abort.abort();
    },
  });
  const done = first.state.steps[0].items.filter((item) => item.status === 'ok').length;
  const start = performance.now();
  let firstStart;
  let expanded;
  const cpu0 = process.cpuUsage();
  const second = await workflow.resumeWorkflow({
    runtime,
    runId: first.runId,
    onEvent: (event) => {
      if (event.type === 'step.items') expanded ??= performance.now() - start;
      if (event.type === 'unit.started') firstStart ??= performance.now() - start;
    },
  });
  const totalMs = performance.now() - start;
  const ok = second.state.steps[0].items.filter((item) => item.status === 'ok').length;
  runtime.close();
  rmSync(root, { recursive: true, force: true });
  return {
    mode: 'resume',
    n,
    doneBefore: done,
    ok,
    expandedMs: expanded,
    firstStartMs: firstStart,
    totalMs,
    ...usage(cpu0),
  };
}

async function validateBench(steps) {
  const { validateProgram } = await import('../dist/index.js');
  const program = {
    schemaVersion: 'bullswarm.workflow.program.v3',
    inputs: { target: { default: 'src' } },
    steps: Array.from({ length: steps }, (_, i) => {
      const deps = [];
      if (i > 0) deps.push(`s${i - 1}`);
      if (i > 37) deps.push(`s${i - 37}`);
      const step = {
        id: `s${i}`,
        lane: ['analyze', 'build', 'chore'][i % 3],
        prompt:
          `Step ${i} of {{inputs.target}}` +
          (i > 0 ? ` after {{outputs.s${i - 1}.data.files}}` : '') +
          (i > 500 ? ` and {{outputs.s${i - 500}.data.summary}}` : ''),
        outputSchema: {
          type: 'object',
          required: ['files', 'summary'],
          properties: {
            files: { type: 'array', items: { type: 'string' } },
            summary: { type: 'string', minLength: 1 },
          },
        },
        files: [`out/s${i}/**`],
        ...(deps.length > 0 ? { dependsOn: deps } : {}),
        ...(i % 10 === 9
          ? { blindTo: [`s${i - 1}`], prompt: `Review step ${i - 1}. Change no file.`, files: [] }
          : {}),
      };
      return step;
    }),
  };
  const times = [];
  let problems = -1;
  for (let run = 0; run < 7; run++) {
    const start = performance.now();
    const result = validateProgram(program, {
      pools: ['echo:a'],
      providers: ['echo'],
      tiers: ['low', 'medium', 'high'],
    });
    times.push(performance.now() - start);
    problems = result.problems.length;
  }
  times.sort((a, b) => a - b);
  return {
    mode: 'validate',
    steps,
    problems,
    medianMs: times[3],
    minMs: times[0],
    maxMs: times[6],
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

function child(args) {
  const result = spawnSync(process.execPath, [self, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`bench ${args.join(' ')} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1));
}

const f1 = (x) => x.toFixed(1);
if (mode === 'engine') console.log(JSON.stringify(await fanOutEngine(count)));
else if (mode === 'baseline') console.log(JSON.stringify(await fanOutBaseline(count)));
else if (mode === 'resume') console.log(JSON.stringify(await resumeBench(count)));
else if (mode === 'validate') console.log(JSON.stringify(await validateBench(count)));
else {
  console.log(
    `@bullswarm/workflow benchmarks (node ${process.version}, ${count} items, concurrency ${CONCURRENCY})\n`,
  );
  const validate = child(['validate', '10000']);
  console.log(
    `validate 10,000 steps: median ${f1(validate.medianMs)} ms (min ${f1(validate.minMs)}, max ${f1(validate.maxMs)}), ${validate.problems} problems, RSS ${f1(validate.maxRssMb)} MB  [target < 1000 ms]`,
  );
  for (let round = 1; round <= 2; round++) {
    const baseline = child(['baseline', String(count)]);
    const engine = child(['engine', String(count)]);
    const overhead = (engine.wallMs - baseline.wallMs) / count;
    console.log(`\nfan-out round ${round}:`);
    for (const r of [baseline, engine]) {
      console.log(
        `  ${r.mode.padEnd(8)} ok ${r.ok}/${r.n}  wall ${f1(r.wallMs)} ms (${f1(r.wallMs / r.n)} ms/item)  connector Σattempts/${CONCURRENCY} ${f1(r.attemptsMs / CONCURRENCY)} ms  own CPU ${f1(r.cpuMs / r.n)} ms/item  peak RSS ${f1(r.maxRssMb)} MB`,
      );
    }
    console.log(
      `  engine overhead vs dispatchTask baseline: ${f1(overhead)} ms/item  [target ≤ 3]; beyond the connector's own time: ${f1((engine.wallMs - engine.attemptsMs / CONCURRENCY) / count)} ms/item (baseline ${f1((baseline.wallMs - baseline.attemptsMs / CONCURRENCY) / count)})`,
    );
  }
  const resume = child(['resume', String(count)]);
  console.log(
    `\nresume ${resume.n} items with ${resume.doneBefore} done: items listed after ${f1(resume.expandedMs)} ms, first remaining item started after ${f1(resume.firstStartMs)} ms [target < 1000], all ${resume.ok} ok after ${f1(resume.totalMs)} ms, peak RSS ${f1(resume.maxRssMb)} MB`,
  );
}
