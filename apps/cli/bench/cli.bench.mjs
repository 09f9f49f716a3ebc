// Startup benchmark of the built CLI: `bullswarm pools --json` over 20 pools with cached meters,
// against a bare `node -e 0`, measured side by side (interleaved) in one run. Target (issue #14):
// ≤ 2.0× the bare node median. Also shown: the same command without the V8 code cache, for comparison.
// Run after a build, on a quiet machine (the load average is printed before and after):
// `pnpm --filter @bullswarm/cli bench`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const N = Number(process.env.BENCH_N ?? 30);
const POOLS = 20;
const now = Date.now();

const home = mkdtempSync(join(tmpdir(), 'bullswarm-cli-bench-'));
const pools = [];
for (let i = 0; i < POOLS; i++) {
  const account = `p${String(i).padStart(2, '0')}`;
  pools.push({
    id: `sim:${account}`,
    connector: 'sim',
    account,
    enabled: true,
    models: {},
    addedAt: new Date(now).toISOString(),
  });
  mkdirSync(join(home, 'sim', account), { recursive: true });
  writeFileSync(
    join(home, 'sim', account, 'meter.json'),
    JSON.stringify({
      readAt: new Date(now).toISOString(),
      windows: [
        {
          kind: 'five_hour',
          usedPct: (i * 7) % 90,
          resetsAt: new Date(now + (60 + i) * 60_000).toISOString(),
        },
        {
          kind: 'weekly',
          usedPct: (i * 13) % 95,
          resetsAt: new Date(now + (2000 + i * 200) * 60_000).toISOString(),
        },
      ],
    }),
  );
}
// A long meter TTL keeps every read of the benchmark on the cache.
writeFileSync(
  join(home, 'state.json'),
  JSON.stringify({
    version: 1,
    pools,
    assignments: {},
    config: { inflightPenaltyPct: 3, connectors: [], meterTtlSec: 86_400 },
  }),
);

// A fresh code cache directory: the first `pools` below writes the cache, as a user's first run would.
const cacheDir = join(home, 'cache');
const env = { ...process.env, BULLSWARM_HOME: home, BULLSWARM_CACHE_DIR: cacheDir };
delete env.BULLSWARM_COMPILE_CACHE;
// Node reads NODE_EXTRA_CA_CERTS at every start (tens of ms): it would inflate both sides alike
// and flatter the ratio. Neither command uses TLS.
const extraCerts = env.NODE_EXTRA_CA_CERTS !== undefined;
delete env.NODE_EXTRA_CA_CERTS;
const noCacheEnv = { ...env, BULLSWARM_COMPILE_CACHE: '0' };
function time(args, runEnv = env) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout.toString() };
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const loadBefore = load();

// Warm-up: the first run reads the meter files and fills the cache; check it did.
time([CLI, 'pools', '--json']);
const warm = JSON.parse(time([CLI, 'pools', '--json']).stdout);
const statuses = new Set(warm.pools.map((p) => p.meter.status));
if (warm.pools.length !== POOLS || statuses.size !== 1 || !statuses.has('cache')) {
  throw new Error(`expected ${POOLS} pools read from the cache, got ${warm.pools.length} (${[...statuses]})`);
}
for (let i = 0; i < 3; i++) time(['-e', '0']);

const bare = [];
const cli = [];
const cold = [];
for (let i = 0; i < N; i++) {
  bare.push(time(['-e', '0']).ms);
  cli.push(time([CLI, 'pools', '--json']).ms);
  cold.push(time([CLI, 'pools', '--json'], noCacheEnv).ms);
}
rmSync(home, { recursive: true, force: true });

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const p90 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)];
const ratio = median(cli) / median(bare);
console.log(`bullswarm pools --json, ${POOLS} pools, cached meters (N=${N} each, interleaved)`);
console.log(
  `  load average before ${loadBefore}, after ${load()}${extraCerts ? '; NODE_EXTRA_CA_CERTS removed from the children' : ''}`,
);
console.log(`  node -e 0              median ${median(bare).toFixed(1)} ms   p90 ${p90(bare).toFixed(1)} ms`);
console.log(`  bullswarm pools --json median ${median(cli).toFixed(1)} ms   p90 ${p90(cli).toFixed(1)} ms`);
console.log(
  `  … without the code cache (BULLSWARM_COMPILE_CACHE=0) median ${median(cold).toFixed(1)} ms   p90 ${p90(cold).toFixed(1)} ms   ${(median(cold) / median(bare)).toFixed(2)}×`,
);
console.log(`  ratio ${ratio.toFixed(2)}× (target ≤ 2.0×): ${ratio <= 2 ? 'met' : 'NOT met'}`);
