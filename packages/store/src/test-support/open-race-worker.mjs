// A worker process of the store's creation-race test: for each round, waits at a barrier until
// every worker is ready, then opens (creating) `<dir>/round-<n>/bullswarm.db` at the same moment
// as the others, and closes it. Prints one JSON line: the start-over warnings it was told and errors.
// Usage: node open-race-worker.mjs <distIndex> <dir> <workerId> <workers> <rounds>
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [distIndex, dir, workerId, workersText, roundsText] = process.argv.slice(2);
const workers = Number(workersText);
const rounds = Number(roundsText);
const { openStore } = await import(distIndex);

const pause = new Int32Array(new SharedArrayBuffer(4));
const warnings = [];
const errors = [];
const BARRIER_BOUND_MS = 30_000;
for (let round = 0; round < rounds; round++) {
  const roundDir = join(dir, `round-${round}`);
  const barrier = join(dir, `barrier-${round}`);
  mkdirSync(barrier, { recursive: true });
  writeFileSync(join(barrier, workerId), '');
  const deadline = Date.now() + BARRIER_BOUND_MS;
  while (readdirSync(barrier).length < workers) {
    if (Date.now() > deadline) {
      errors.push(`round ${round}: the other workers never reached the barrier`);
      break;
    }
    Atomics.wait(pause, 0, 0, 1); // 1 ms between looks: the workers leave the barrier within ≈1 ms
  }
  try {
    const store = openStore({
      dbPath: join(roundDir, 'bullswarm.db'),
      onStartOver: (message) => warnings.push(`round ${round}: ${message}`),
    });
    store.runs.list();
    store.close();
  } catch (error) {
    errors.push(`round ${round}: ${error.name}: ${error.code ?? ''} ${error.message}`);
  }
  if (!existsSync(join(roundDir, 'bullswarm.db'))) errors.push(`round ${round}: no database after open`);
}
process.stdout.write(`${JSON.stringify({ workerId, warnings, errors })}\n`);
