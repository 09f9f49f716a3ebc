// Whole-process benchmarks of `bullswarm run` through the built CLI, each against its baseline,
// interleaved in one run (N = BENCH_N, default 30, medians):
//
// 1. `bullswarm run --lane analyze <prompt>` on a pool whose agent is a two-line shell script
//    (bench-homes.mjs), against `node run.bench.mjs spawn <agent> <prompt>`: Node spawning that
//    script directly and reading its output. Goal (issue #14): ≤ 15 ms more.
// 2. `bullswarm run --dry-run --json --lane analyze <prompt>` over 20 sim pools with cached meters,
//    against `node -e 0`. Goal: ≤ 2.0×.
//
//   pnpm --filter @bullswarm/cli bench      (or: node bench/run.bench.mjs)
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  benchEnv,
  CLI,
  load,
  makeRoot,
  median,
  simPoolsHome,
  timeProcess,
  trivialHome,
} from './bench-homes.mjs';

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'spawn') {
  const [agent, ...args] = rest;
  const child = spawn(agent, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(process.stdout);
  child.stderr.pipe(process.stderr);
  child.on('close', (code) => {
    process.exitCode = code ?? 1;
  });
} else {
  const N = Number(process.env.BENCH_N ?? 30);
  const self = fileURLToPath(import.meta.url);
  const root = makeRoot('run');
  try {
    const trivial = trivialHome(root);
    const sim = simPoolsHome(root, 20);
    const cache = join(root, 'cache');
    const runEnv = benchEnv({ BULLSWARM_HOME: trivial.home, BULLSWARM_CACHE_DIR: cache });
    const simEnv = benchEnv({ BULLSWARM_HOME: sim.home, BULLSWARM_CACHE_DIR: cache });
    const prompt = 'Explain the parser';
    const cases = {
      bare: () => timeProcess(process.execPath, ['-e', '0'], { env: runEnv }).ms,
      spawn: () => timeProcess(process.execPath, [self, 'spawn', trivial.agent, prompt], { env: runEnv }).ms,
      run: () =>
        timeProcess(process.execPath, [CLI, 'run', '--lane', 'analyze', prompt], {
          env: runEnv,
          cwd: trivial.work,
        }).ms,
      dry: () =>
        timeProcess(process.execPath, [CLI, 'run', '--dry-run', '--json', '--lane', 'analyze', prompt], {
          env: simEnv,
          cwd: trivial.work,
        }).ms,
    };
    const loadBefore = load();
    // Warm-up: the code caches of `run` (the first start writes them, as a user's first run would),
    // the meter cache of the sim pools; and check what each command prints.
    for (let i = 0; i < 3; i++) for (const measure of Object.values(cases)) measure();
    const answer = timeProcess(process.execPath, [CLI, 'run', '--lane', 'analyze', prompt], {
      env: runEnv,
      cwd: trivial.work,
    }).stdout;
    if (answer !== `ok: ${prompt}\n`) throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
    const dry = JSON.parse(
      timeProcess(process.execPath, [CLI, 'run', '--dry-run', '--json', '--lane', 'analyze', prompt], {
        env: simEnv,
      }).stdout,
    );
    if (dry.ok !== true || dry.candidates.length !== 20) throw new Error('the dry run did not see 20 pools');
    const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
    const names = Object.keys(cases);
    for (let i = 0; i < N; i++) {
      // Rotate the order each round, so no case always runs right after another.
      for (let j = 0; j < names.length; j++) {
        const name = names[(i + j) % names.length];
        times[name].push(cases[name]());
      }
    }
    const m = Object.fromEntries(names.map((name) => [name, median(times[name])]));
    const f1 = (x) => x.toFixed(1);
    const added = m.run - m.spawn;
    const dryRatio = m.dry / m.bare;
    console.log(`bullswarm run, whole processes (N=${N} each, interleaved; node ${process.version})`);
    console.log(
      `  load average before ${loadBefore}, after ${load()}; NODE_EXTRA_CA_CERTS removed from the children`,
    );
    console.log(`  node -e 0                                   median ${f1(m.bare)} ms`);
    console.log(`  node spawning the two-line agent directly   median ${f1(m.spawn)} ms`);
    console.log(`  bullswarm run (that agent, one pool)        median ${f1(m.run)} ms`);
    console.log(`  bullswarm run --dry-run --json (20 pools)   median ${f1(m.dry)} ms`);
    console.log(
      `  run adds ${f1(added)} ms over spawning the agent directly (goal ≤ 15 ms): ${added <= 15 ? 'met' : 'NOT met'}`,
    );
    console.log(
      `  run --dry-run --json is ${dryRatio.toFixed(2)}× node -e 0 (goal ≤ 2.0×): ${dryRatio <= 2 ? 'met' : 'NOT met'}`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
