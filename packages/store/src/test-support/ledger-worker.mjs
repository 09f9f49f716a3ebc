// A worker process of the store concurrency test: opens the store from the built dist and does
// `cycles` record → read back → append run → release cycles, then prints one JSON report line.
// Usage: node ledger-worker.mjs <distIndex> <dbPath> <workerId> <cycles>
const [distIndex, dbPath, workerId, cyclesText] = process.argv.slice(2);
const cycles = Number(cyclesText);
const { openStore } = await import(distIndex);

const errors = [];
let recorded = 0;
let released = 0;
let appended = 0;
let store;
try {
  store = openStore({ dbPath });
} catch (error) {
  errors.push(`open: ${error.name}: ${error.message}`);
}
for (let i = 0; store !== undefined && i < cycles; i++) {
  const id = `${workerId}-${i}`;
  const poolId = `pool-${i % 4}`;
  try {
    const startedAt = Date.now();
    store.ledger.record({
      id,
      poolId,
      action: `run-${id}`,
      tier: 'medium',
      lane: 'build',
      startedAt,
      pid: process.pid,
    });
    recorded++;
    const mine = store.ledger.list({ poolId }).filter((entry) => entry.id === id);
    if (mine.length !== 1) errors.push(`cycle ${i}: own entry seen ${mine.length} times after record`);
    store.runs.append({
      id,
      poolId,
      tier: 'medium',
      lane: 'build',
      action: `run-${id}`,
      startedAt,
      endedAt: startedAt + 1,
      stalled: false,
      outcome: 'ok',
      workerMinutes: 0.01,
    });
    appended++;
    if (!store.ledger.release(id)) errors.push(`cycle ${i}: release found no entry`);
    else released++;
  } catch (error) {
    errors.push(`cycle ${i}: ${error.name}: ${error.code ?? ''} ${error.message}`);
  }
}
store?.close();
process.stdout.write(`${JSON.stringify({ workerId, recorded, released, appended, errors })}\n`);
