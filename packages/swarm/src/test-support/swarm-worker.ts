/**
 * A real process for the swarm's process-level tests, bundled by the vitest global setup into
 * test-results/worker/dist/swarm-worker.js and run with plain `node`:
 *
 * The store is `dbPath`'s SQLite file, or the Postgres database `storeUrl` names; `hostId` is the
 * "host" the process is on (two hosts on one machine in the cross-host tests).
 *
 * - `takeover <json>`: opens the store, prints `ready`, waits for the barrier file, then calls
 *   `leads.takeover` at the given epoch and prints one JSON line (`{"won":true,"epoch":n}` or
 *   `{"won":false,"error":"FencingError",…}`).
 * - `hold-lease <json>`: registers the address with its own pid, takes the lease, prints `ready`,
 *   and heartbeats every `heartbeatMs` (printing `beat` after each) until it is killed.
 */
import { existsSync } from 'node:fs';
import { openAsyncStore } from '@bullswarm/store';
import { planLocation } from '../plans/plan-location';
import { createSwarm } from '../store/create-swarm';

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const [command, json] = process.argv.slice(2);
const args = JSON.parse(json ?? '{}') as Record<string, unknown>;
const store = await openAsyncStore({
  target:
    typeof args.storeUrl === 'string'
      ? { engine: 'postgres', url: args.storeUrl, source: 'BULLSWARM_STORE_URL' }
      : { engine: 'sqlite', dbPath: String(args.dbPath) },
  ...(typeof args.hostId === 'string' ? { hostId: args.hostId } : {}),
  env: {},
});
const swarm = await createSwarm({ store, env: {} });

if (command === 'takeover') {
  const plan = planLocation({ repo: String(args.repo), id: String(args.id) });
  process.stdout.write('ready\n');
  const barrier = String(args.barrier);
  while (!existsSync(barrier)) sleep(1);
  try {
    const record = await swarm.leads.takeover(plan, {
      address: String(args.address),
      epoch: Number(args.epoch),
    });
    process.stdout.write(`${JSON.stringify({ won: true, epoch: record.epoch, lead: record.lead })}\n`);
  } catch (error) {
    const e = error as { name?: string; reason?: string; message?: string };
    process.stdout.write(
      `${JSON.stringify({ won: false, error: e.name, reason: e.reason, message: e.message })}\n`,
    );
  }
  await store.close();
} else if (command === 'hold-lease') {
  const address = String(args.address);
  await swarm.agents.register({ address, pid: process.pid });
  await swarm.leases.acquire({
    poolId: String(args.pool),
    holder: address,
    owner: String(args.owner),
    ttlMs: Number(args.ttlMs),
  });
  process.stdout.write('ready\n');
  const heartbeatMs = Number(args.heartbeatMs ?? 50);
  const beat = async () => {
    await swarm.agents.heartbeat(address);
    process.stdout.write('beat\n');
    setTimeout(beat, heartbeatMs);
  };
  setTimeout(beat, heartbeatMs);
} else {
  process.stderr.write(`swarm-worker: unknown command ${command}\n`);
  process.exit(2);
}
