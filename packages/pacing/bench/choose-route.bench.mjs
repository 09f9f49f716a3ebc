// One chooseRoute decision over 10, 100, 1,000 and 10,000 pools, each with 3 in-flight records and
// 4 recorded runs, from the built dist. Run `pnpm build` (or `npx tsup`) first; `pnpm bench` in
// the repo root does that through turbo. Target: <= 2 µs per pool (10,000 pools < 20 ms) and
// linear growth. Compare ratios within one run: the machine is noisy.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const distEntry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
if (!existsSync(distEntry)) {
  console.error(
    `${distEntry} is missing: build the package first (npx tsup, or pnpm turbo run build --filter=@bullswarm/pacing).`,
  );
  process.exit(1);
}
const { chooseRoute } = await import(distEntry);

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const MINUTE = 60_000;

// A small deterministic generator (mulberry32), so every run benchmarks the same pools.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makePools(count, seed) {
  const next = random(seed);
  const pools = [];
  for (let i = 0; i < count; i++) {
    const id = `pool-${String(i).padStart(5, '0')}`;
    const measured = next() < 0.5;
    pools.push({
      id,
      connectorId: `connector-${i % 7}`,
      providerFamily: `family-${i % 5}`,
      credentialGroup: id,
      enabled: next() < 0.95,
      lanes: ['analyze', 'build', 'chore'],
      capabilities: [],
      models: {
        low: { model: 'small', free: false },
        medium: { model: next() < 0.1 ? 'openrouter/qwen:free' : 'mid', free: false },
        high: { model: 'large', free: false },
      },
      pacingWindow: next() < 0.7 ? 'weekly' : 'monthly',
      hasFiveHourWindow: true,
      meter: {
        status: 'live',
        windows: [
          {
            kind: 'five_hour',
            usedPct: next() * 99,
            windowMinutes: 300,
            resetsAt: NOW + Math.floor(next() * 300) * MINUTE,
          },
          {
            kind: 'weekly',
            usedPct: next() * 99,
            windowMinutes: 10_080,
            resetsAt: NOW + Math.floor(next() * 10_080) * MINUTE,
          },
          {
            kind: 'monthly',
            usedPct: next() * 99,
            windowMinutes: 43_200,
            resetsAt: NOW + Math.floor(next() * 43_200) * MINUTE,
          },
        ],
      },
      spendRates: measured ? { five_hour: next(), weekly: next() / 10, monthly: next() / 40 } : {},
      inflight: [0, 1, 2].map((k) => ({
        id: `${id}-w${k}`,
        startedAt: NOW - Math.floor(next() * 30) * MINUTE,
        ...(k === 2 ? {} : { expectedMinutes: 5 + next() * 20 }),
      })),
      runs: [0, 1, 2, 3].map((k) => {
        const endedAt = NOW - (k + 1) * 90 * MINUTE;
        return {
          poolId: id,
          tier: k % 2 === 0 ? 'medium' : 'high',
          startedAt: endedAt - Math.floor(2 + next() * 20) * MINUTE,
          endedAt,
          stalled: k === 3,
          outcome: k === 3 ? 'stalled' : 'ok',
        };
      }),
    });
  }
  return pools;
}

const task = { lane: 'analyze', tier: 'medium', kind: 'workflow-step' };
const sizes = [10, 100, 1_000, 10_000];
const SAMPLES = 25;
const results = [];

// Each sample times a batch of decisions lasting about 2 ms or more (one decision at 10,000 pools),
// by wall clock and by this process's CPU time. On a loaded machine the wall clock also counts
// time the process was preempted, which the CPU time does not; the CPU time, though, also counts
// V8's parallel GC threads, so it can exceed the wall clock. The target is on the wall clock.
for (const size of sizes) {
  const pools = makePools(size, 42 + size);
  const batch = Math.max(1, Math.round(20_000 / size));
  let sink = 0;
  for (let i = 0; i < Math.max(10, 2 * batch); i++)
    sink += chooseRoute({ pools, task, now: NOW }).candidates.length;
  const wall = [];
  const cpu = [];
  for (let s = 0; s < SAMPLES; s++) {
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) sink += chooseRoute({ pools, task, now: NOW }).candidates.length;
    wall.push(Number(process.hrtime.bigint() - start) / 1e6 / batch);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1e3 / batch);
  }
  const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
  const wallMs = median(wall);
  const cpuMs = median(cpu);
  results.push({
    size,
    batch,
    wallMs,
    cpuMs,
    wallUs: (wallMs * 1000) / size,
    cpuUs: (cpuMs * 1000) / size,
    sink,
  });
}

console.log(
  `chooseRoute: one decision, 3 in-flight records and 4 recorded runs per pool (median of ${SAMPLES} samples)`,
);
console.log('pools    batch  wall ms   wall µs/pool  cpu ms    cpu µs/pool');
for (const r of results) {
  console.log(
    `${String(r.size).padEnd(8)} ${String(r.batch).padEnd(6)} ${r.wallMs.toFixed(3).padStart(8)}  ${r.wallUs.toFixed(3).padStart(11)}  ${r.cpuMs.toFixed(3).padStart(8)}  ${r.cpuUs.toFixed(3).padStart(11)}`,
  );
}
const at = (size) => results.find((r) => r.size === size);
console.log(
  `per-pool cost ratio 10,000 vs 100 pools: wall ${(at(10_000).wallUs / at(100).wallUs).toFixed(2)}, cpu ${(at(10_000).cpuUs / at(100).cpuUs).toFixed(2)} (1.00 = linear)`,
);
const big = at(10_000);
console.log(
  `target <= 2 µs/pool (10,000 pools < 20 ms, wall clock): ${big.wallMs < 20 ? 'met' : 'NOT met'} at ${big.wallMs.toFixed(1)} ms` +
    ` (load average ${(await import('node:os')).loadavg()[0].toFixed(2)}; cpu counts the parallel GC threads too)`,
);
