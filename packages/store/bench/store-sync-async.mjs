// The asynchronous store on embedded SQLite against the synchronous one, in one process, alternating:
// the ratio the "no regression beyond 10 %" target needs on a noisy machine (both stores see the same
// load at almost the same moment).
//
//   node bench/store-sync-async.mjs [dist/index.js]   (default: this package's ./dist)
//   ROUNDS=20 BLOCK=300 node bench/store-sync-async.mjs
//
// Each round runs, for each store (order alternating), BLOCK record+release pairs and BLOCK lists on its
// own database with 8 entries in flight. Prints the median ops/s of each store and the median of the
// per-round ratios (async / sync).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const index = process.argv[2]
  ? pathToFileURL(resolve(process.argv[2])).href
  : new URL('../dist/index.js', import.meta.url).href;
const { openStore, openAsyncStore } = await import(index);
const ROUNDS = Number(process.env.ROUNDS ?? 20);
const BLOCK = Number(process.env.BLOCK ?? 300);

const dir = mkdtempSync(join(tmpdir(), 'bullswarm-store-sync-async-'));
try {
  const sync = openStore({ dbPath: join(dir, 'sync.db') });
  const async = await openAsyncStore({
    target: { engine: 'sqlite', dbPath: join(dir, 'async.db') },
    hostId: `bench-${process.pid}`,
  });
  const entry = (tag, i) => ({
    poolId: `pool-${i % 4}`,
    action: `${tag}-${i}`,
    startedAt: Date.now(),
    pid: process.pid,
  });
  for (let i = 0; i < 8; i++) {
    sync.ledger.record(entry('busy', i));
    await async.ledger.record(entry('busy', i));
  }
  const runs = {
    sync: {
      pairs() {
        for (let i = 0; i < BLOCK; i++) sync.ledger.release(sync.ledger.record(entry('x', i)).id);
      },
      lists() {
        for (let i = 0; i < BLOCK; i++) sync.ledger.list();
      },
    },
    async: {
      async pairs() {
        for (let i = 0; i < BLOCK; i++)
          await async.ledger.release((await async.ledger.record(entry('x', i))).id);
      },
      async lists() {
        for (let i = 0; i < BLOCK; i++) await async.ledger.list();
      },
    },
  };
  // Warm-up: both stores' statements prepared, the JIT settled.
  for (let i = 0; i < 3; i++)
    for (const run of Object.values(runs)) {
      await run.pairs();
      await run.lists();
    }
  const rates = { sync: { pairs: [], lists: [] }, async: { pairs: [], lists: [] } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? ['sync', 'async'] : ['async', 'sync']) {
      for (const kind of ['pairs', 'lists']) {
        const started = performance.now();
        await runs[name][kind]();
        const ops = kind === 'pairs' ? 2 * BLOCK : BLOCK;
        rates[name][kind].push(ops / ((performance.now() - started) / 1000));
      }
    }
  }
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  console.log(
    `store sync vs async on SQLite (node ${process.version}, ${ROUNDS} rounds × ${BLOCK}, one process)`,
  );
  for (const kind of ['pairs', 'lists']) {
    const ratios = rates.async[kind].map((rate, i) => rate / rates.sync[kind][i]);
    console.log(
      `${kind === 'pairs' ? 'record+release' : 'list'}: sync ${Math.round(median(rates.sync[kind]))} ops/s, ` +
        `async ${Math.round(median(rates.async[kind]))} ops/s, async/sync ${median(ratios).toFixed(3)} ` +
        `(rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
    );
  }
  sync.close();
  await async.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
