// Ledger throughput of the built store (run `npx tsup` first, or `pnpm bench` through turbo).
//
//   node bench/store.bench.mjs            one process, then 8 processes at once
//   PAIRS=2000 PROCESSES=8 node bench/store.bench.mjs
//
// One "op" is one ledger call: record, release, or list. Target: >= 2,000 ops/s from one process.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = new URL('../dist/index.js', import.meta.url).href;
const { openStore } = await import(dist);
const PAIRS = Number(process.env.PAIRS ?? 2000);
const LISTS = Number(process.env.LISTS ?? 2000);
const PROCESSES = Number(process.env.PROCESSES ?? 8);

function recordReleasePairs(store, pairs, tag) {
  const started = performance.now();
  for (let i = 0; i < pairs; i++) {
    const entry = store.ledger.record({
      poolId: `pool-${i % 4}`,
      action: `${tag}-${i}`,
      startedAt: Date.now(),
      pid: process.pid,
    });
    store.ledger.release(entry.id);
  }
  return performance.now() - started;
}

function lists(store, count) {
  const started = performance.now();
  for (let i = 0; i < count; i++) store.ledger.list();
  return performance.now() - started;
}

if (process.argv[2] === '--worker') {
  // A child of the multi-process run: wait for the common start instant, then work.
  const [, , , dbPath, tag, startAtText] = process.argv;
  const store = openStore({ dbPath });
  while (Date.now() < Number(startAtText)) {}
  const begin = Date.now();
  const pairMs = recordReleasePairs(store, PAIRS, tag);
  const pairEnd = Date.now();
  const listMs = lists(store, LISTS);
  store.close();
  process.stdout.write(`${JSON.stringify({ begin, pairEnd, end: Date.now(), pairMs, listMs })}\n`);
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'bullswarm-store-bench-'));
const dbPath = join(dir, 'bullswarm.db');
const fmt = (n) => Math.round(n).toLocaleString('en-US');
try {
  const store = openStore({ dbPath });
  recordReleasePairs(store, 200, 'warmup');
  // A realistic ledger: a few entries in flight while we measure.
  for (let i = 0; i < 8; i++)
    store.ledger.record({
      poolId: `pool-${i % 4}`,
      action: `busy-${i}`,
      startedAt: Date.now(),
      pid: process.pid,
    });
  const pairMs = recordReleasePairs(store, PAIRS, 'single');
  const listMs = lists(store, LISTS);
  store.close();
  console.log(
    `store ledger benchmark (node ${process.version}, ${PAIRS} record+release pairs, ${LISTS} lists, 8 entries in flight)`,
  );
  console.log(
    `1 process : record+release ${fmt((2 * PAIRS) / (pairMs / 1000))} ops/s (${fmt(PAIRS / (pairMs / 1000))} pairs/s); list ${fmt(LISTS / (listMs / 1000))} ops/s`,
  );

  const startAt = Date.now() + 1500;
  const script = fileURLToPath(import.meta.url);
  const children = Array.from(
    { length: PROCESSES },
    (_, i) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [script, '--worker', dbPath, `p${i}`, String(startAt)], {
          stdio: ['ignore', 'pipe', 'inherit'],
          env: process.env,
        });
        let out = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
        });
        child.on('error', reject);
        child.on('close', (code) =>
          code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`worker ${i} exited ${code}`)),
        );
      }),
  );
  const results = await Promise.all(children);
  const begin = Math.min(...results.map((r) => r.begin));
  const end = Math.max(...results.map((r) => r.end));
  const totalOps = PROCESSES * (2 * PAIRS + LISTS);
  const pairOpsPerProcess = results.map((r) => (2 * PAIRS) / (r.pairMs / 1000));
  const pairWindow = Math.max(...results.map((r) => r.pairEnd)) - begin;
  console.log(
    `${PROCESSES} processes: record+release aggregate ${fmt((PROCESSES * 2 * PAIRS) / (pairWindow / 1000))} ops/s ` +
      `(${fmt(PROCESSES * 2 * PAIRS)} ops in ${fmt(pairWindow)} ms)`,
  );
  console.log(
    `${PROCESSES} processes: all ops aggregate ${fmt(totalOps / ((end - begin) / 1000))} ops/s over ${fmt(end - begin)} ms ` +
      `(${fmt(totalOps)} ops: record+release and list); per process record+release ${fmt(Math.min(...pairOpsPerProcess))}–${fmt(Math.max(...pairOpsPerProcess))} ops/s`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
