// Overhead of dispatchTask over spawning the agent CLI directly.
//
//   pnpm --filter @bullswarm/dispatch bench   (or: node bench/dispatch-overhead.bench.mjs [runs])
//
// Needs the built dist (`npx turbo run build --filter=@bullswarm/dispatch...`). One sim pool in a
// temp home, the `ok` scenario. Each round runs, in alternating order, (a) dispatchTask — route
// over the live snapshot (meter cache, ledger, run log), ledger record/release, attempt files,
// spawn, stream, parse, classify, run record — and (b) execa of the very same command line and
// environment, reading its output to the end. The machine is noisy: compare the two medians of
// one run, not numbers across runs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { buildChildEnv, dispatchTask, openRuntime } from '../dist/index.js';

const runs = Number(process.argv[2] ?? 40);
const warmup = 3;
const home = mkdtempSync(join(tmpdir(), 'bullswarm-bench-dispatch-'));
const work = join(home, 'work');
const out = join(home, 'out');
mkdirSync(work, { recursive: true });
mkdirSync(join(home, 'sim', 'a'), { recursive: true });
const now = Date.now();
writeFileSync(
  join(home, 'state.json'),
  JSON.stringify({
    version: 1,
    pools: [
      {
        id: 'sim:a',
        connector: 'sim',
        account: 'a',
        enabled: true,
        models: {},
        addedAt: new Date(now).toISOString(),
      },
    ],
    assignments: {},
    config: { inflightPenaltyPct: 3, connectors: [] },
  }),
);
writeFileSync(
  join(home, 'sim', 'a', 'meter.json'),
  JSON.stringify({
    readAt: new Date(now).toISOString(),
    windows: [
      {
        kind: 'weekly',
        usedPct: 10,
        resetsAt: new Date(now + 3 * 86_400_000).toISOString(),
        windowMinutes: 10_080,
      },
    ],
  }),
);

const env = { PATH: process.env.PATH ?? '' };
const runtime = await openRuntime({ home, env, createStore: true });
const prompt = 'Explain the parser';
const connector = runtime.connectors.get('sim');
const accountEnv = connector.accountEnv({ account: 'a', bullswarmHome: home, userHome: runtime.userHome });
const invocation = connector.buildInvocation({
  prompt,
  model: 'sim/standard',
  cwd: work,
  addDirs: [],
  account: 'a',
  accountEnv,
  extraEnv: { BULLSWARM_POOL: 'sim:a' },
  bullswarmHome: home,
});
const childEnv = buildChildEnv(env, invocation.env, []);

async function direct() {
  const start = performance.now();
  const child = execa(invocation.command, invocation.args, {
    cwd: invocation.cwd,
    env: childEnv,
    extendEnv: false,
    stdin: 'ignore',
    buffer: false,
    reject: false,
    detached: true,
  });
  child.stdout.on('data', () => {});
  child.stderr.on('data', () => {});
  const result = await child;
  if (result.exitCode !== 0) throw new Error(`direct sim exited ${result.exitCode}`);
  return performance.now() - start;
}

async function dispatched() {
  const start = performance.now();
  const result = await dispatchTask(runtime, {
    action: 'bench',
    prompt,
    lane: 'analyze',
    kind: 'single-run',
    cwd: work,
    outputDir: out,
  });
  if (!result.ok) throw new Error(`dispatch failed: ${result.kind} ${result.why}`);
  return performance.now() - start;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

for (let i = 0; i < warmup; i += 1) {
  await direct();
  await dispatched();
}
const times = { direct: [], dispatch: [] };
for (let i = 0; i < runs; i += 1) {
  if (i % 2 === 0) {
    times.direct.push(await direct());
    times.dispatch.push(await dispatched());
  } else {
    times.dispatch.push(await dispatched());
    times.direct.push(await direct());
  }
}
await runtime.close();
rmSync(home, { recursive: true, force: true });

const d = median(times.direct);
const t = median(times.dispatch);
const overheads = times.dispatch.map((value, i) => value - times.direct[i]);
console.log(`dispatch-overhead: ${runs} interleaved rounds (+${warmup} warm-up), sim scenario ok, one pool`);
console.log(`  direct execa spawn   median ${d.toFixed(1)} ms`);
console.log(`  dispatchTask         median ${t.toFixed(1)} ms`);
console.log(
  `  overhead             median of medians ${(t - d).toFixed(1)} ms, median of per-round differences ${median(overheads).toFixed(1)} ms (target <= 15 ms)`,
);
