// Reading the meters of 20 pools, from the built dist, with a real SQLite store (WAL, on disk).
// Run `npx tsup` here after building the dependencies (`pnpm turbo run build --filter=@bullswarm/meters...`);
// `pnpm bench` in the repo root does that through turbo.
//
// - warm cache: every pool was read from its source moments ago, so readAll answers from the
//   store's meter cache with no source I/O. Target: < 5 ms for 20 pools.
// - live (for scale): the same 20 pools with force: true, each reading its meter file and
//   retaining its windows.
// Compare ratios within one run: the machine is noisy.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const distEntry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
if (!existsSync(distEntry)) {
  console.error(`${distEntry} is missing: build first (pnpm turbo run build --filter=@bullswarm/meters...).`);
  process.exit(1);
}
const { createMeterService } = await import(distEntry);
const { openStore } = await import('@bullswarm/store');

const POOLS = 20;
const WARMUP = 50;
const ITERATIONS = 500;
const LIVE_ITERATIONS = 50;

const dir = await mkdtemp(join(tmpdir(), 'bullswarm-meters-bench-'));
const store = openStore({ dbPath: join(dir, 'bullswarm.db') });
try {
  const now = Date.now();
  const requests = [];
  for (let i = 0; i < POOLS; i++) {
    const path = join(dir, `pool-${i}.json`);
    await writeFile(
      path,
      JSON.stringify({
        windows: [
          { kind: 'five_hour', usedPct: (i * 7) % 100, resetsAt: now + 3_600_000 },
          { kind: 'weekly', usedPct: (i * 13) % 100, resetsAt: now + 3 * 86_400_000 },
        ],
      }),
    );
    requests.push({ poolId: `file:pool-${i}`, source: { type: 'file', path }, home: dir });
  }
  // A TTL far longer than the run, so every timed read is a cache hit.
  const service = createMeterService({ store, env: {}, userHome: dir, ttlMs: 3_600_000 });
  const first = await service.readAll(requests);
  if ([...first.values()].some((m) => m.status !== 'live')) throw new Error('warm-up read was not live');

  const time = async (iterations, run) => {
    const samples = [];
    for (let i = 0; i < iterations; i++) {
      const start = process.hrtime.bigint();
      await run();
      samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    samples.sort((a, b) => a - b);
    const pick = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
    return { median: pick(0.5), p95: pick(0.95), max: samples[samples.length - 1] };
  };

  for (let i = 0; i < WARMUP; i++) await service.readAll(requests);
  const cached = await time(ITERATIONS, async () => {
    const meters = await service.readAll(requests);
    if (meters.get('file:pool-0').status !== 'cache') throw new Error('expected a cache hit');
  });
  const forced = requests.map((r) => ({ ...r, force: true }));
  const live = await time(LIVE_ITERATIONS, () => service.readAll(forced));

  const fmt = (r) =>
    `median ${r.median.toFixed(3)} ms  p95 ${r.p95.toFixed(3)} ms  max ${r.max.toFixed(3)} ms`;
  console.log(`meters: readAll of ${POOLS} pools, real SQLite store (node ${process.version})`);
  console.log(
    `  warm cache (${ITERATIONS} runs): ${fmt(cached)}  target < 5 ms: ${cached.median < 5 ? 'met' : 'MISSED'}`,
  );
  console.log(`  live, forced file reads (${LIVE_ITERATIONS} runs): ${fmt(live)}`);
  console.log(`  live / cache (median): ${(live.median / cached.median).toFixed(1)}x`);
} finally {
  store.close();
  await rm(dir, { recursive: true, force: true });
}
