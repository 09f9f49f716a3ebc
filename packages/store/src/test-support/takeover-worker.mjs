// A racer of the cross-host takeover test. For round r = 1…<rounds>: wait until the coordinator
// opens round r (table race_rounds), then try to take the lead record from epoch r to r + 1 in
// one transaction — read, compare the epoch, write, log the takeover — the compare-and-set the
// swarm's lead book does. Exactly one racer per round may win. Prints one JSON report line.
// Usage: node takeover-worker.mjs <distIndex> <targetJson> <hostId> <workerId> <rounds>
const [distIndex, targetJson, hostId, workerId, roundsText] = process.argv.slice(2);
const rounds = Number(roundsText);
const { openAsyncStore } = await import(distIndex);
const store = await openAsyncStore({ target: JSON.parse(targetJson), hostId });
const errors = [];
const outcomes = [];
class Fenced extends Error {}
for (let round = 1; round <= rounds; round++) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const open = await store.sql.get('SELECT round FROM race_rounds WHERE id = 1');
    if (open !== undefined && open.round >= round) break;
    if (Date.now() > deadline) {
      errors.push(`round ${round}: never opened`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const expected = round;
  let outcome;
  try {
    await store.transaction(async (tx) => {
      const row = await tx.sql.get('SELECT lead, epoch FROM race_leads WHERE plan = ?', ['plan-1']);
      if (row.epoch !== expected) throw new Fenced(`epoch ${row.epoch}, not ${expected}`);
      const change = await tx.sql.exec(
        'UPDATE race_leads SET lead = ?, epoch = ? WHERE plan = ? AND epoch = ?',
        [workerId, expected + 1, 'plan-1', expected],
      );
      if (change.changes !== 1) throw new Error('lead record changed inside its own transaction');
      await tx.sql.exec(
        "INSERT INTO race_events (plan, kind, epoch, lead, host) VALUES (?, 'takeover', ?, ?, ?)",
        ['plan-1', expected + 1, workerId, hostId],
      );
    });
    outcome = 'won';
  } catch (error) {
    if (error instanceof Fenced) outcome = 'lost';
    else {
      outcome = 'error';
      errors.push(`round ${round}: ${error.name}: ${error.code ?? ''} ${error.message}`);
    }
  }
  outcomes.push(outcome);
  await store.sql.exec('INSERT INTO race_results (round, worker, outcome) VALUES (?, ?, ?)', [
    round,
    workerId,
    outcome,
  ]);
}
await store.close();
process.stdout.write(`${JSON.stringify({ workerId, hostId, outcomes, errors })}\n`);
