// A process of host <hostId> holding one in-flight entry, renewed by the store's heartbeat every
// <intervalMs>. Once two renewals have landed it prints {"id": …} and waits to be killed (it ends
// by itself after 120 s, so a failed test never leaves it behind).
// Usage: node holder-worker.mjs <distIndex> <targetJson> <hostId> <intervalMs> <ttlMs>
const [distIndex, targetJson, hostId, intervalText, ttlText] = process.argv.slice(2);
const { openAsyncStore } = await import(distIndex);
const store = await openAsyncStore({
  target: JSON.parse(targetJson),
  hostId,
  heartbeat: { intervalMs: Number(intervalText), ttlMs: Number(ttlText) },
});
const entry = await store.ledger.record({
  poolId: 'shared',
  action: 'held',
  startedAt: Date.now(),
  pid: process.pid,
});
const deadline = Date.now() + 60_000;
const read = async () =>
  (await store.sql.get('SELECT heartbeat_at FROM inflight WHERE id = ?', [entry.id])).heartbeat_at;
const first = await read();
while ((await read()) === first && Date.now() < deadline)
  await new Promise((resolve) => setTimeout(resolve, 20));
process.stdout.write(`${JSON.stringify({ id: entry.id })}\n`);
setTimeout(() => process.exit(3), 120_000);
