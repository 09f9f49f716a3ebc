// Two builds of the asynchronous store on one Postgres server, alternating: the ratio a change to the
// Postgres engine needs on a noisy machine (both builds see the same server, disk and load, minutes apart
// at most).
//
//   node bench/store-pg-ab.mjs <before>/dist/index.js <after>/dist/index.js
//   ROUNDS=6 PAIRS=500 PROCESSES=8 BULLSWARM_BENCH_PG_URL=postgres://… node bench/store-pg-ab.mjs …
//       (default: a throwaway cluster with the server's default durability, as store.bench.mjs)
//
// Each round runs, for each build (order alternating), on that build's own database with 8 entries in
// flight: PAIRS record+release pairs from one process, then PROCESSES processes at once each doing PAIRS
// record+release pairs and PAIRS lists. Prints the median ops/s of each build and the median of the
// per-round ratios (after / before).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startBenchPostgres } from './bench-postgres.mjs';

const PAIRS = Number(process.env.PAIRS ?? 500);
const PROCESSES = Number(process.env.PROCESSES ?? 8);
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const script = fileURLToPath(import.meta.url);

const entry = (tag, i) => ({
  poolId: `pool-${i % 4}`,
  action: `${tag}-${i}`,
  startedAt: Date.now(),
  pid: process.pid,
});
async function open(index, url) {
  const { openAsyncStore } = await import(pathToFileURL(resolve(index)).href);
  return openAsyncStore({
    target: { engine: 'postgres', url, source: 'bench' },
    hostId: `bench-${process.pid}`,
  });
}
async function pairs(store, tag) {
  const started = performance.now();
  for (let i = 0; i < PAIRS; i++) await store.ledger.release((await store.ledger.record(entry(tag, i))).id);
  return performance.now() - started;
}

if (process.argv[2] === '--worker') {
  const [, , , index, url, startAtText] = process.argv;
  const store = await open(index, url);
  while (Date.now() < Number(startAtText)) {}
  const begin = Date.now();
  await pairs(store, `w${process.pid}`);
  const pairEnd = Date.now();
  for (let i = 0; i < PAIRS; i++) await store.ledger.list();
  const end = Date.now();
  await store.close();
  process.stdout.write(`${JSON.stringify({ begin, pairEnd, end })}\n`);
  process.exit(0);
}

const [beforeIndex, afterIndex] = process.argv.slice(2);
if (!beforeIndex || !afterIndex) {
  console.error('usage: node bench/store-pg-ab.mjs <before dist/index.js> <after dist/index.js>');
  process.exit(2);
}

const server = startBenchPostgres();
const { serverUrl } = server;
const { default: pg } = await import('pg');
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
const databases = {};
try {
  for (const name of ['before', 'after']) {
    const db = `bench_${name}_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${db}`);
    const url = new URL(serverUrl);
    url.pathname = `/${db}`;
    databases[name] = { db, url: url.toString(), index: name === 'before' ? beforeIndex : afterIndex };
  }
  // 8 entries in flight in each database, and both builds warmed up.
  for (const { index, url } of Object.values(databases)) {
    const store = await open(index, url);
    for (let i = 0; i < 8; i++) await store.ledger.record(entry('busy', i));
    await pairs(store, 'warmup');
    await store.close();
  }
  const rates = Object.fromEntries(
    ['before', 'after'].map((name) => [name, { one: [], pairs: [], all: [] }]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? ['before', 'after'] : ['after', 'before']) {
      const { index, url } = databases[name];
      const store = await open(index, url);
      rates[name].one.push((2 * PAIRS) / ((await pairs(store, `one-${round}`)) / 1000));
      await store.close();
      const startAt = Date.now() + 1500 + PROCESSES * 200;
      const results = await Promise.all(
        Array.from(
          { length: PROCESSES },
          (_, i) =>
            new Promise((done, fail) => {
              const child = spawn(process.execPath, [script, '--worker', index, url, String(startAt)], {
                stdio: ['ignore', 'pipe', 'inherit'],
              });
              let text = '';
              child.stdout.on('data', (chunk) => {
                text += chunk;
              });
              child.on('close', (code) =>
                code === 0 ? done(JSON.parse(text)) : fail(new Error(`worker ${i} exited ${code}`)),
              );
            }),
        ),
      );
      const begin = Math.min(...results.map((r) => r.begin));
      const pairWindow = Math.max(...results.map((r) => r.pairEnd)) - begin;
      const window = Math.max(...results.map((r) => r.end)) - begin;
      rates[name].pairs.push((PROCESSES * 2 * PAIRS) / (pairWindow / 1000));
      rates[name].all.push((PROCESSES * 3 * PAIRS) / (window / 1000));
    }
  }
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  console.log(
    `store Postgres A/B (node ${process.version}, ${ROUNDS} rounds, ${PAIRS} pairs per process, ${PROCESSES} processes)`,
  );
  const labels = {
    one: '1 process, record+release',
    pairs: `${PROCESSES} processes, record+release aggregate`,
    all: `${PROCESSES} processes, all ops aggregate`,
  };
  for (const kind of ['one', 'pairs', 'all']) {
    const ratios = rates.after[kind].map((rate, i) => rate / rates.before[kind][i]);
    const fmt = (values) => values.map((v) => Math.round(v)).join(' ');
    console.log(
      `${labels[kind]}: before ${Math.round(median(rates.before[kind]))} ops/s, after ${Math.round(median(rates.after[kind]))} ops/s, ` +
        `after/before ${median(ratios).toFixed(3)} (before ${fmt(rates.before[kind])}; after ${fmt(rates.after[kind])})`,
    );
  }
} finally {
  for (const { db } of Object.values(databases))
    await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  await admin.end();
  server.stop();
}
