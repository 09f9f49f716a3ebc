import { type ChildProcess, fork, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AsyncBullswarmStore, openAsyncStore, openStore, type StoreTarget } from '@bullswarm/store';
import { createTestDatabase } from '@bullswarm/test-support';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { WorkflowError } from '../errors/workflow-error';
import { WORKER_BUNDLE } from '../test-support/worker-process';
import { claimRun, ensureWorkflowTables, WORKFLOW_RUN_SCOPE, workflowMigrations } from './run-owner';

const RACER = fileURLToPath(new URL('../test-support/claim-racer.mjs', import.meta.url));
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const HOST = 'run-owner-test-a';

interface TestStore {
  readonly home: string;
  readonly store: AsyncBullswarmStore;
  /** The environment that points a bullswarm process at the same store (`BULLSWARM_HOME`, `BULLSWARM_STORE_URL`). */
  readonly env: Record<string, string>;
}

/** Each engine's store for one test: a SQLite home, or a Postgres database of its own. */
const ENGINES = [
  { engine: 'sqlite' as const, available: true },
  { engine: 'postgres' as const, available: inject('pgUrl') !== '' },
];

async function tempStore(engine: 'sqlite' | 'postgres', hostId = HOST): Promise<TestStore> {
  const home = mkdtempSync(join(tmpdir(), 'bullswarm-claim-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  let target: StoreTarget = { engine: 'sqlite', dbPath: join(home, 'bullswarm.db') };
  const env: Record<string, string> = { BULLSWARM_HOME: home };
  if (engine === 'postgres') {
    const database = await createTestDatabase(inject('pgUrl'));
    cleanups.push(() => database.drop());
    target = { engine: 'postgres', url: database.url, source: 'test' };
    env.BULLSWARM_STORE_URL = database.url;
  }
  const store = await openAsyncStore({ target, hostId, migrations: [workflowMigrations] });
  cleanups.push(() => store.close());
  return { home, store, env };
}

/** A pid that belonged to a process that has exited (and was reaped). */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  if (pid === undefined) throw new Error('could not start a short-lived process');
  return pid;
}

async function plantOwner(
  store: AsyncBullswarmStore,
  runId: string,
  pid: number,
  host: string,
  heartbeatAt = Date.now(),
): Promise<void> {
  await store.sql.exec(
    `INSERT INTO store_claims (scope, name, host, pid, pid_start_time, token, claimed_at, heartbeat_at)
     VALUES (?, ?, ?, ?, NULL, 'planted', ?, ?)
     ON CONFLICT (scope, name) DO UPDATE SET host = excluded.host, pid = excluded.pid,
       pid_start_time = NULL, token = excluded.token, claimed_at = excluded.claimed_at, heartbeat_at = excluded.heartbeat_at`,
    [WORKFLOW_RUN_SCOPE, runId, host, pid, heartbeatAt, heartbeatAt],
  );
}

async function owners(store: AsyncBullswarmStore, runId: string): Promise<{ pid: number }[]> {
  return store.sql.query<{ pid: number }>('SELECT pid FROM store_claims WHERE scope = ? AND name = ?', [
    WORKFLOW_RUN_SCOPE,
    runId,
  ]);
}

async function busy(claim: Promise<unknown>): Promise<Error> {
  try {
    await claim;
  } catch (error) {
    expect(WorkflowError.isInstance(error) && error.kind).toBe('run-busy');
    return error as Error;
  }
  throw new Error('expected run-busy');
}

describe.each(ENGINES)('claimRun on $engine', ({ engine, available }) => {
  it.skipIf(!available)(
    'one claim per run: a second claim (even by the same process) is run-busy naming the driver',
    async () => {
      const { store } = await tempStore(engine);
      const claim = await claimRun(store, 'wf-aaaa1111');
      expect(claim.owner.pid).toBe(process.pid);
      expect((await busy(claimRun(store, 'wf-aaaa1111'))).message).toBe(
        `run wf-aaaa1111 is being driven by process ${process.pid}; watch it with \`bullswarm workflow watch wf-aaaa1111\``,
      );
      // Another run is free.
      await (await claimRun(store, 'wf-bbbb2222')).release();
      await claim.release();
      await claim.release();
      expect(await owners(store, 'wf-aaaa1111')).toEqual([]);
      await (await claimRun(store, 'wf-aaaa1111')).release();
    },
  );

  it.skipIf(!available)(
    "takes over a dead process's claim; another host's counts while its heartbeat is within the TTL, not after",
    async () => {
      const { store } = await tempStore(engine);
      await plantOwner(store, 'wf-dead0001', deadPid(), HOST);
      const claim = await claimRun(store, 'wf-dead0001');
      expect(await owners(store, 'wf-dead0001')).toEqual([{ pid: process.pid }]);
      await claim.release();
      // A row of a bullswarm from before host ids names the bare hostname: still this host's.
      await plantOwner(store, 'wf-dead0002', deadPid(), hostname());
      await (await claimRun(store, 'wf-dead0002')).release();

      const ttlMs = store.heartbeat.settings.ttlMs;
      await plantOwner(store, 'wf-far00001', 4242, 'elsewhere.example', Date.now() - ttlMs + 60_000);
      expect((await busy(claimRun(store, 'wf-far00001'))).message).toContain(
        'run wf-far00001 is being driven by process 4242 on elsewhere.example;',
      );
      await plantOwner(store, 'wf-far00001', 4242, 'elsewhere.example', Date.now() - ttlMs - 1_000);
      const takenOver = await claimRun(store, 'wf-far00001');
      expect(await owners(store, 'wf-far00001')).toEqual([{ pid: process.pid }]);
      await takenOver.release();
    },
  );

  it.skipIf(!available)(
    '200 rounds of 4 processes racing for one run (half over a dead owner; on Postgres from two hosts): exactly one owner each',
    async () => {
      const { store, env } = await tempStore(engine);
      const racers: ChildProcess[] = [];
      type Waiter = { resolve: (message: Record<string, unknown>) => void; reject: (error: Error) => void };
      const inbox = new Map<ChildProcess, Waiter[]>();
      const next = (racer: ChildProcess) =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          inbox.get(racer)?.push({ resolve, reject });
        });
      for (let i = 0; i < 4; i++) {
        // Postgres: racers 0 and 1 are this host, 2 and 3 another one sharing the database.
        const hostId = engine === 'postgres' && i >= 2 ? 'run-owner-test-b' : HOST;
        const racer = fork(RACER, [WORKER_BUNDLE], {
          env: { ...process.env, ...env, BULLSWARM_HOST_ID: hostId },
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        });
        inbox.set(racer, []);
        racer.on('message', (message) =>
          inbox
            .get(racer)
            ?.shift()
            ?.resolve(message as Record<string, unknown>),
        );
        racer.on('exit', (code) => {
          for (const waiter of inbox.get(racer)?.splice(0) ?? [])
            waiter.reject(new Error(`racer ${racer.pid} exited (${code})`));
        });
        racers.push(racer);
      }
      cleanups.push(() => {
        for (const racer of racers) racer.kill('SIGKILL');
      });
      await Promise.all(racers.map((racer) => next(racer)));
      const dead = deadPid();
      for (let round = 0; round < 200; round++) {
        const runId = `wf-race${String(round).padStart(4, '0')}`;
        if (round % 2 === 1) await plantOwner(store, runId, dead, HOST);
        const at = Date.now() + 15;
        const answers = await Promise.all(
          racers.map((racer) => {
            const answer = next(racer);
            racer.send({ type: 'claim', runId, at });
            return answer;
          }),
        );
        const winners = answers.filter((answer) => answer.won === true);
        expect(winners, `round ${round}`).toHaveLength(1);
        const winner = winners[0]?.pid as number;
        expect(await owners(store, runId)).toEqual([{ pid: winner }]);
        for (const answer of answers.filter((a) => a.won !== true)) {
          expect(answer.kind).toBe('run-busy');
          // The other host cannot see this host's pids: before the takeover it judges the planted
          // (dead) owner by its heartbeat, which is fresh, and names it.
          const named = [
            `is being driven by process ${winner}`,
            `is being driven by process ${dead} on ${HOST}`,
          ];
          expect(
            named.some((text) => String(answer.message).includes(text)),
            String(answer.message),
          ).toBe(true);
        }
        const holder = racers.find((racer) => racer.pid === winner) as ChildProcess;
        const released = next(holder);
        holder.send({ type: 'release', runId });
        await released;
        expect(await owners(store, runId)).toEqual([]);
      }
      for (const racer of racers) racer.send({ type: 'exit' });
    },
    240_000,
  );
});

describe('a home from before the claims (workflow_owners, workflow step 1)', () => {
  it('upgrades: a live owner keeps its run, a dead one is taken over, and workflow_owners is gone', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bullswarm-claim-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const dbPath = join(home, 'bullswarm.db');
    // The home as the previous bullswarm left it: the workflow namespace at step 1, two owner rows.
    const old = openStore({
      dbPath,
      migrations: [{ namespace: 'workflow', migrations: workflowMigrations.migrations.slice(0, 1) }],
    });
    const insert = old.database.prepare(
      'INSERT INTO workflow_owners (run_id, pid, pid_start, host, token, claimed_at) VALUES (?, ?, NULL, ?, ?, ?)',
    );
    const sleeper = spawnSleeper();
    cleanups.push(() => sleeper.kill('SIGKILL'));
    insert.run('wf-live0001', sleeper.pid, hostname(), 'old-live', Date.now());
    insert.run('wf-dead0001', deadPid(), hostname(), 'old-dead', Date.now());
    old.close();

    const store = await openAsyncStore({ target: { engine: 'sqlite', dbPath }, hostId: HOST });
    cleanups.push(() => store.close());
    await ensureWorkflowTables(store);
    const tables = await store.sql.query<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'workflow_owners'",
    );
    expect(tables).toEqual([]);
    expect((await busy(claimRun(store, 'wf-live0001'))).message).toContain(
      `is being driven by process ${sleeper.pid};`,
    );
    const taken = await claimRun(store, 'wf-dead0001');
    expect(await owners(store, 'wf-dead0001')).toEqual([{ pid: process.pid }]);
    await taken.release();
  });
});

/** A live process of this host that the test owns (ended in clean-up). */
function spawnSleeper(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
}
