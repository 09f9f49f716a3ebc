// Two builds of the store in one process, alternating: the ratio a regression check needs on a noisy
// machine (both builds see the same load at almost the same moment).
//
//   node bench/store-ab.mjs <before>/dist/index.js <after>/dist/index.js   (e.g. a build kept aside, and ./dist)
//
// 20 rounds; each round runs, for each build (order alternating), 300 record+release pairs and 300 lists on
// its own database with 8 entries in flight. Prints the median ops/s of each build and their ratio.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [beforeIndex, afterIndex] = process.argv.slice(2);
if (!beforeIndex || !afterIndex) {
  console.error('usage: node bench/store-ab.mjs <before dist/index.js> <after dist/index.js>');
  process.exit(2);
}
const load = async (path) => import(pathToFileURL(resolve(path)).href);
const builds = { before: await load(beforeIndex), after: await load(afterIndex) };
const dir = mkdtempSync(join(tmpdir(), 'bullswarm-store-ab-'));
try {
  const stores = Object.fromEntries(
    Object.entries(builds).map(([name, build]) => [
      name,
      build.openStore({ dbPath: join(dir, `${name}.db`) }),
    ]),
  );
  for (const store of Object.values(stores))
    for (let i = 0; i < 8; i++)
      store.ledger.record({
        poolId: `pool-${i % 4}`,
        action: `busy-${i}`,
        startedAt: Date.now(),
        pid: process.pid,
      });
  const rates = { before: { pairs: [], lists: [] }, after: { pairs: [], lists: [] } };
  for (let round = 0; round < 20; round++) {
    for (const name of round % 2 ? ['before', 'after'] : ['after', 'before']) {
      const store = stores[name];
      let started = performance.now();
      for (let i = 0; i < 300; i++) {
        const entry = store.ledger.record({
          poolId: `pool-${i % 4}`,
          action: `x-${i}`,
          startedAt: Date.now(),
          pid: process.pid,
        });
        store.ledger.release(entry.id);
      }
      rates[name].pairs.push(600 / ((performance.now() - started) / 1000));
      started = performance.now();
      for (let i = 0; i < 300; i++) store.ledger.list();
      rates[name].lists.push(300 / ((performance.now() - started) / 1000));
    }
  }
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return (sorted[9] + sorted[10]) / 2;
  };
  for (const kind of ['pairs', 'lists']) {
    const before = median(rates.before[kind]);
    const after = median(rates.after[kind]);
    console.log(
      `${kind === 'pairs' ? 'record+release' : 'list'}: before ${Math.round(before)} ops/s, after ${Math.round(after)} ops/s, ratio ${(after / before).toFixed(3)}`,
    );
  }
  for (const store of Object.values(stores)) store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
