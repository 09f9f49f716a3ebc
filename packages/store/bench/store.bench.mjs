// Ledger throughput of the built store (run `npx tsup` first, or `pnpm bench` through turbo), on
// each engine: the synchronous SQLite store (what commands use today), the asynchronous store on
// SQLite, and the asynchronous store on Postgres.
//
//   node bench/store.bench.mjs                 every engine, one process then 8 processes at once
//   ENGINES=sqlite-sync,postgres node bench/store.bench.mjs
//   PAIRS=2000 PROCESSES=8 node bench/store.bench.mjs
//   BULLSWARM_BENCH_PG_URL=postgres://… node bench/store.bench.mjs   a server of yours (else a
//       throwaway cluster with the server's default durability: tooling/scripts/test-postgres.sh start --durable)
//
// One "op" is one ledger call: record, release, or list. Target: >= 2,000 ops/s from one process
// (SQLite), >= 2,000 ops/s in total from 8 processes (Postgres).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBenchPostgres } from './bench-postgres.mjs';

const dist = new URL('../dist/index.js', import.meta.url).href;
const { openStore, openAsyncStore } = await import(dist);
const PAIRS = Number(process.env.PAIRS ?? 2000);
const LISTS = Number(process.env.LISTS ?? 2000);
const PROCESSES = Number(process.env.PROCESSES ?? 8);
const ENGINES = (process.env.ENGINES ?? 'sqlite-sync,sqlite-async,postgres').split(',');

/** A ledger with the same calls, synchronous or not (awaiting a plain value costs a microtask). */
async function openLedger(kind, where) {
  if (kind === 'sqlite-sync') {
    const store = openStore({ dbPath: where });
    return { sync: true, ledger: store.ledger, close: async () => store.close() };
  }
  const target =
    kind === 'sqlite-async'
      ? { engine: 'sqlite', dbPath: where }
      : { engine: 'postgres', url: where, source: 'bench' };
  const store = await openAsyncStore({ target, hostId: `bench-${process.pid}` });
  return { sync: false, ledger: store.ledger, close: () => store.close() };
}

async function recordReleasePairs({ sync, ledger }, pairs, tag) {
  const started = performance.now();
  for (let i = 0; i < pairs; i++) {
    const entry = { poolId: `pool-${i % 4}`, action: `${tag}-${i}`, startedAt: Date.now(), pid: process.pid };
    if (sync) ledger.release(ledger.record(entry).id);
    else await ledger.release((await ledger.record(entry)).id);
  }
  return performance.now() - started;
}

async function lists({ sync, ledger }, count) {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    if (sync) ledger.list();
    else await ledger.list();
  }
  return performance.now() - started;
}

if (process.argv[2] === '--worker') {
  // A child of the multi-process run: wait for the common start instant, then work.
  const [, , , kind, where, tag, startAtText] = process.argv;
  const handle = await openLedger(kind, where);
  while (Date.now() < Number(startAtText)) {}
  const begin = Date.now();
  const pairMs = await recordReleasePairs(handle, PAIRS, tag);
  const pairEnd = Date.now();
  const listMs = await lists(handle, LISTS);
  const end = Date.now();
  await handle.close();
  process.stdout.write(`${JSON.stringify({ begin, pairEnd, end, pairMs, listMs })}\n`);
  process.exit(0);
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const script = fileURLToPath(import.meta.url);

async function measure(kind, where) {
  const handle = await openLedger(kind, where);
  await recordReleasePairs(handle, 200, 'warmup');
  // A realistic ledger: a few entries in flight while we measure.
  for (let i = 0; i < 8; i++) {
    const entry = { poolId: `pool-${i % 4}`, action: `busy-${i}`, startedAt: Date.now(), pid: process.pid };
    if (handle.sync) handle.ledger.record(entry);
    else await handle.ledger.record(entry);
  }
  const pairMs = await recordReleasePairs(handle, PAIRS, 'single');
  const listMs = await lists(handle, LISTS);
  await handle.close();
  console.log(
    `${kind.padEnd(12)} 1 process : record+release ${fmt((2 * PAIRS) / (pairMs / 1000))} ops/s (${fmt(PAIRS / (pairMs / 1000))} pairs/s); list ${fmt(LISTS / (listMs / 1000))} ops/s`,
  );

  const startAt = Date.now() + 1500 + PROCESSES * 200;
  const children = Array.from(
    { length: PROCESSES },
    (_, i) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [script, '--worker', kind, where, `p${i}`, String(startAt)], {
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
    `${kind.padEnd(12)} ${PROCESSES} processes: record+release aggregate ${fmt((PROCESSES * 2 * PAIRS) / (pairWindow / 1000))} ops/s ` +
      `(${fmt(PROCESSES * 2 * PAIRS)} ops in ${fmt(pairWindow)} ms)`,
  );
  console.log(
    `${kind.padEnd(12)} ${PROCESSES} processes: all ops aggregate ${fmt(totalOps / ((end - begin) / 1000))} ops/s over ${fmt(end - begin)} ms ` +
      `(${fmt(totalOps)} ops: record+release and list); per process record+release ${fmt(Math.min(...pairOpsPerProcess))}–${fmt(Math.max(...pairOpsPerProcess))} ops/s`,
  );
}

/** A Postgres database for one run: on the given server, or on a throwaway durable cluster's (see bench-postgres.mjs). */
async function postgresDatabase() {
  const server = startBenchPostgres();
  const { default: pg } = await import('pg');
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server.serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: server.serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      server.stop();
    },
  };
}

console.log(
  `store ledger benchmark (node ${process.version}, ${PAIRS} record+release pairs, ${LISTS} lists, 8 entries in flight)`,
);
for (const kind of ENGINES) {
  if (kind === 'postgres') {
    const database = await postgresDatabase();
    try {
      await measure(kind, database.url);
    } finally {
      await database.drop();
    }
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'bullswarm-store-bench-'));
    try {
      await measure(kind, join(dir, 'bullswarm.db'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
