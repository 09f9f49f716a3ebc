// A worker process of the cross-host ledger test: opens the asynchronous store (either engine)
// from the built dist as host <hostId> and does `cycles` record → read back → append run →
// release cycles, then prints one JSON report line.
// Usage: node async-ledger-worker.mjs <distIndex> <targetJson> <hostId> <workerId> <cycles>
const [distIndex, targetJson, hostId, workerId, cyclesText] = process.argv.slice(2);
const cycles = Number(cyclesText);
const { openAsyncStore } = await import(distIndex);

const errors = [];
let recorded = 0;
let released = 0;
let appended = 0;
const otherHostsSeen = new Set();
let store;
try {
  store = await openAsyncStore({ target: JSON.parse(targetJson), hostId });
} catch (error) {
  errors.push(`open: ${error.name}: ${error.message}`);
}
for (let i = 0; store !== undefined && i < cycles; i++) {
  const id = `${workerId}-${i}`;
  const poolId = `pool-${i % 4}`;
  try {
    const startedAt = Date.now();
    await store.ledger.record({
      id,
      poolId,
      action: `run-${id}`,
      tier: 'medium',
      lane: 'build',
      startedAt,
      pid: process.pid,
    });
    recorded++;
    const listed = await store.ledger.list({ poolId });
    const mine = listed.filter((entry) => entry.id === id);
    if (mine.length !== 1) errors.push(`cycle ${i}: own entry seen ${mine.length} times after record`);
    for (const entry of listed) if (entry.host !== hostId) otherHostsSeen.add(entry.host);
    await store.runs.append({
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
    if (!(await store.ledger.release(id))) errors.push(`cycle ${i}: release found no entry`);
    else released++;
  } catch (error) {
    errors.push(`cycle ${i}: ${error.name}: ${error.code ?? ''} ${error.message}`);
  }
}
await store?.close();
process.stdout.write(
  `${JSON.stringify({ workerId, hostId, recorded, released, appended, otherHostsSeen: [...otherHostsSeen], errors })}\n`,
);
