// One chooseRoute decision over 10 to 10,000 pools (bench/make-pools.mjs: 3 windows, 3 in-flight
// records and 4 recorded runs each), from the built dist. Run `pnpm build` (or `npx tsup`) first;
// `pnpm bench` in the repo root does that through turbo.
//
// Two cases per size, measured warm (after warm-up decisions on the same pools):
// - pick: what a caller needs to act on the decision — poolId, model, reason and forecast line;
// - pick + rows: the same, then every candidate row read (`candidates` is built and sorted on
//   first read: dispatch's run record and `run --json` read them all).
// Target (issue 14): one warm pick over 10,000 pools <= 5 ms, wall clock; growth from 100 to 10,000
// pools shown as the per-pool cost ratio.
//
// The pools are listed by id, as `bullswarm pools` lists them; `BENCH_POOL_ORDER=shuffled` passes
// them in a seeded random order instead (the duplicate-id check then hashes every id).
//
// `--baseline <dir>` (a copy of another build's dist, e.g. the previous commit's) measures that build
// in the same run, alternating with this one round by round, so both see the same machine load.
// Main-thread CPU (Linux: /proc/thread-self/schedstat, tick resolution, so read over whole rounds)
// leaves out the time the process waited for a core, which the wall clock on a loaded machine
// does not; it also leaves out V8's GC helper threads.
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makePools, NOW, random } from './make-pools.mjs';

const distEntry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const flag = process.argv.indexOf('--baseline');
const baselineEntry = flag === -1 ? null : resolve(process.argv[flag + 1] ?? '', 'index.js');
for (const entry of [distEntry, baselineEntry]) {
  if (entry !== null && !existsSync(entry)) {
    console.error(
      `${entry} is missing: build the package first (npx tsup, or pnpm turbo run build --filter=@bullswarm/pacing).`,
    );
    process.exit(1);
  }
}
const builds = [{ name: 'this build', chooseRoute: (await import(distEntry)).chooseRoute }];
if (baselineEntry !== null) {
  builds.push({ name: 'baseline', chooseRoute: (await import(baselineEntry)).chooseRoute });
}

const threadCpuMs = existsSync('/proc/thread-self/schedstat')
  ? () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6
  : null;

const task = { lane: 'analyze', tier: 'medium', kind: 'workflow-step' };
// `BENCH_SIZES=100,10000` measures only those sizes (the growth line needs both 100 and 10,000).
const sizes = process.env.BENCH_SIZES
  ? process.env.BENCH_SIZES.split(',').map(Number)
  : [10, 100, 1_000, 3_000, 10_000];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const SAMPLES_PER_ROUND = 5;
const loadAtStart = loadavg()[0];
const shuffled = process.env.BENCH_POOL_ORDER === 'shuffled';
let sink = 0;

function pick(chooseRoute, pools) {
  const d = chooseRoute({ pools, task, now: NOW });
  sink += d.poolId.length + d.reason.length + (d.forecastLine ?? '').length;
}

function pickAndRows(chooseRoute, pools) {
  const d = chooseRoute({ pools, task, now: NOW });
  sink += d.poolId.length + d.reason.length + (d.forecastLine ?? '').length;
  const rows = d.candidates;
  for (let i = 0; i < rows.length; i++) sink += rows[i].effectiveSurplus;
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const results = [];
for (const size of sizes) {
  const pools = makePools(size, 42 + size);
  if (shuffled) {
    const next = random(7 + size);
    for (let i = pools.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [pools[i], pools[j]] = [pools[j], pools[i]];
    }
  }
  // Each sample is a batch of decisions lasting about 2 ms or more (one at 10,000 pools).
  const batch = Math.max(1, Math.round(20_000 / size));
  for (const [caseName, run] of [
    ['pick', pick],
    ['pick + rows', pickAndRows],
  ]) {
    const stats = builds.map(() => ({ wall: [], cpu: [] }));
    for (const build of builds)
      for (let i = 0; i < Math.max(10, 2 * batch); i++) run(build.chooseRoute, pools);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which build goes first.
      const order = round % 2 === 0 ? builds.map((_, i) => i) : builds.map((_, i) => builds.length - 1 - i);
      for (const b of order) {
        const cpuStart = threadCpuMs?.() ?? 0;
        for (let s = 0; s < SAMPLES_PER_ROUND; s++) {
          const start = process.hrtime.bigint();
          for (let i = 0; i < batch; i++) run(builds[b].chooseRoute, pools);
          stats[b].wall.push(Number(process.hrtime.bigint() - start) / 1e6 / batch);
        }
        if (threadCpuMs !== null) {
          stats[b].cpu.push((threadCpuMs() - cpuStart) / (SAMPLES_PER_ROUND * batch));
        }
      }
    }
    builds.forEach((build, b) => {
      const wallMs = median(stats[b].wall);
      results.push({
        build: build.name,
        caseName,
        size,
        batch,
        wallMs,
        wallUs: (wallMs * 1000) / size,
        cpuMs: threadCpuMs === null ? null : median(stats[b].cpu),
      });
    });
  }
}

console.log(
  `chooseRoute: one warm decision, 3 windows, 3 in-flight records and 4 recorded runs per pool, ` +
    `${shuffled ? 'pools in a seeded random order' : 'pools listed by id'} ` +
    `(wall: median of ${ROUNDS * SAMPLES_PER_ROUND} samples; main-thread cpu: median of ${ROUNDS} rounds)`,
);
console.log('build       case         pools   batch  wall ms   wall µs/pool  main-thread cpu ms');
for (const r of results) {
  console.log(
    `${r.build.padEnd(11)} ${r.caseName.padEnd(12)} ${String(r.size).padEnd(7)} ${String(r.batch).padEnd(6)} ` +
      `${r.wallMs.toFixed(3).padStart(8)}  ${r.wallUs.toFixed(3).padStart(11)}  ${r.cpuMs === null ? '-' : r.cpuMs.toFixed(3).padStart(10)}`,
  );
}
const at = (build, caseName, size) =>
  results.find((r) => r.build === build && r.caseName === caseName && r.size === size);
for (const build of builds) {
  for (const caseName of ['pick', 'pick + rows']) {
    const big = at(build.name, caseName, 10_000);
    const small = at(build.name, caseName, 100);
    if (big === undefined || small === undefined) continue;
    console.log(
      `${build.name}, ${caseName}: per-pool cost at 10,000 vs 100 pools ${(big.wallUs / small.wallUs).toFixed(2)}× wall` +
        (big.cpuMs === null ? '' : `, ${(big.cpuMs / 10_000 / (small.cpuMs / 100)).toFixed(2)}× cpu`) +
        ' (1.00 = linear)',
    );
  }
}
const pickBig = at('this build', 'pick', 10_000);
if (pickBig !== undefined) {
  console.log(
    `target: one warm pick over 10,000 pools <= 5 ms (wall clock): ${pickBig.wallMs <= 5 ? 'met' : 'NOT met'} at ` +
      `${pickBig.wallMs.toFixed(2)} ms (main-thread cpu ${pickBig.cpuMs?.toFixed(2) ?? '-'} ms); load average ` +
      `${loadAtStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`,
  );
} else {
  console.log(`load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`);
}
if (sink === 0) console.log('(no decisions made)');
