import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreTarget } from '../engine/store-target';
import { spawnNode, supportScript, workerDistIndex } from '../test-support/spawn-node';
import { storeEngines } from '../test-support/store-engines';
import { useTempDirs } from '../test-support/temp-dir';
import type { AsyncBullswarmStore } from './async-store-types';
import { type OpenAsyncStoreOptions, openAsyncStore } from './open-async-store';

const tempDir = useTempDirs();
const opened: AsyncBullswarmStore[] = [];
const cleanups: (() => Promise<void>)[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const store of opened.splice(0)) await store.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The first line a child prints (bounded: 60 s, else the test fails naming what it printed). */
async function firstLine(child: ChildProcess): Promise<string> {
  let out = '';
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no line within 60 s; stderr: ${err}`)), 60_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const end = out.indexOf('\n');
      if (end !== -1) {
        clearTimeout(timer);
        resolve(out.slice(0, end));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before printing a line; stderr: ${err}`));
    });
  });
}

describe.each(storeEngines())('two hosts on one $engine store (real processes)', (engine) => {
  let target: StoreTarget;
  const fresh = async () => {
    const made = await engine.fresh(tempDir);
    target = made.target;
    cleanups.push(made.cleanup);
  };
  const open = async (options: Partial<OpenAsyncStoreOptions> = {}) => {
    const store = await openAsyncStore({ target, hostId: 'host-b', ...options });
    opened.push(store);
    return store;
  };

  describe.skipIf(!engine.available)('(server available)', () => {
    it("host B sees host A's entry; after kill -9 of A's process B reaps it once the TTL has passed, not before", async () => {
      await fresh();
      const ttlMs = 4000;
      // The database exists before the holder starts, so the holder's open is quick.
      const b0 = await open();
      const holder = spawn(
        process.execPath,
        [
          supportScript('holder-worker.mjs'),
          workerDistIndex,
          JSON.stringify(target),
          'host-a',
          '50',
          String(ttlMs),
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.push(holder);
      const { id } = JSON.parse(await firstLine(holder)) as { id: string };
      const seen = await b0.ledger.list();
      expect(seen).toMatchObject([{ id, host: 'host-a', pid: holder.pid, poolId: 'shared' }]);

      const exited = once(holder, 'exit');
      holder.kill('SIGKILL');
      await exited;
      const row = await b0.sql.get<{ heartbeat_at: number }>(
        'SELECT heartbeat_at FROM inflight WHERE id = ?',
        [id],
      );
      const lastBeat = row!.heartbeat_at;
      // B judges A's entry by its heartbeat only: its pid is dead, yet until the TTL has passed it stays.
      const atTtl = await open({ clock: () => lastBeat + ttlMs, heartbeat: { intervalMs: 1000, ttlMs } });
      expect(await atTtl.ledger.reap()).toBe(0);
      expect((await atTtl.ledger.list()).map((e) => e.id)).toEqual([id]);
      const pastTtl = await open({
        clock: () => lastBeat + ttlMs + 1,
        heartbeat: { intervalMs: 1000, ttlMs },
      });
      expect(await pastTtl.ledger.list()).toEqual([]);
    }, 180_000);

    it("a process of host A reaps A's own dead entry by its pid, without waiting for the TTL", async () => {
      await fresh();
      const b = await open();
      const holder = spawn(
        process.execPath,
        [
          supportScript('holder-worker.mjs'),
          workerDistIndex,
          JSON.stringify(target),
          'host-a',
          '50',
          '600000',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.push(holder);
      const { id } = JSON.parse(await firstLine(holder)) as { id: string };
      const exited = once(holder, 'exit');
      holder.kill('SIGKILL');
      await exited;
      expect((await b.ledger.list()).map((e) => e.id)).toEqual([id]);
      const a = await open({ hostId: 'host-a' });
      expect(await a.ledger.list()).toEqual([]);
    }, 180_000);

    it('20 takeover races of one lead record across two hosts (4 processes) each have exactly one winner', async () => {
      await fresh();
      const ROUNDS = 20;
      const coordinator = await open({ hostId: 'coordinator' });
      await coordinator.ensureMigrations({
        namespace: 'race-test',
        migrations: [
          {
            sqlite: `CREATE TABLE race_events (id INTEGER PRIMARY KEY AUTOINCREMENT, plan TEXT NOT NULL, kind TEXT NOT NULL,
                epoch INTEGER NOT NULL, lead TEXT NOT NULL, host TEXT NOT NULL)`,
            postgres: `CREATE TABLE race_events (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, plan TEXT NOT NULL,
                kind TEXT NOT NULL, epoch INTEGER NOT NULL, lead TEXT NOT NULL, host TEXT NOT NULL)`,
          },
          `CREATE TABLE race_leads (plan TEXT PRIMARY KEY, lead TEXT NOT NULL, epoch INTEGER NOT NULL);
           CREATE UNIQUE INDEX race_epochs ON race_events (plan, epoch) WHERE kind IN ('claim', 'takeover');
           CREATE TABLE race_rounds (id INTEGER PRIMARY KEY, round INTEGER NOT NULL);
           CREATE TABLE race_results (round INTEGER NOT NULL, worker TEXT NOT NULL, outcome TEXT NOT NULL,
             PRIMARY KEY (round, worker));
           INSERT INTO race_leads (plan, lead, epoch) VALUES ('plan-1', 'first-lead', 1);
           INSERT INTO race_rounds (id, round) VALUES (1, 0);`,
        ],
      });
      const racers = ['a1', 'a2', 'b1', 'b2'].map((worker) =>
        spawnNode(supportScript('takeover-worker.mjs'), [
          workerDistIndex,
          JSON.stringify(target),
          `host-${worker[0]}`,
          worker,
          String(ROUNDS),
        ]),
      );
      children.push(...racers.map((racer) => racer.child));
      for (let round = 1; round <= ROUNDS; round++) {
        await coordinator.sql.exec('UPDATE race_rounds SET round = ? WHERE id = 1', [round]);
        const deadline = Date.now() + 60_000;
        for (;;) {
          const done = await coordinator.sql.get<{ n: number }>(
            'SELECT COUNT(*) AS n FROM race_results WHERE round = ?',
            [round],
          );
          if (done!.n === racers.length) break;
          if (Date.now() > deadline)
            throw new Error(`round ${round}: only ${done!.n} of ${racers.length} racers reported in 60 s`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
      const reports = await Promise.all(racers.map((racer) => racer.done));
      for (const report of reports) {
        expect(report.stderr).toBe('');
        expect(report.code).toBe(0);
        expect(JSON.parse(report.stdout).errors.slice(0, 3)).toEqual([]);
      }
      const results = await coordinator.sql.query<{ round: number; outcome: string }>(
        'SELECT round, outcome FROM race_results',
      );
      for (let round = 1; round <= ROUNDS; round++) {
        const outcomes = results
          .filter((r) => r.round === round)
          .map((r) => r.outcome)
          .sort();
        expect(outcomes, `round ${round}`).toEqual(['lost', 'lost', 'lost', 'won']);
      }
      const events = await coordinator.sql.query<{ epoch: number; host: string }>(
        'SELECT epoch, host FROM race_events ORDER BY id',
      );
      expect(events.map((e) => e.epoch)).toEqual(Array.from({ length: ROUNDS }, (_, i) => i + 2));
      expect(new Set(events.map((e) => e.host))).toEqual(new Set(['host-a', 'host-b']));
      expect(await coordinator.sql.get('SELECT epoch FROM race_leads')).toEqual({ epoch: ROUNDS + 1 });
    }, 300_000);

    it('2 hosts × 4 processes × 250 ledger cycles (racing to create the schema) lose and duplicate nothing', async () => {
      await fresh();
      const CYCLES = 250;
      const workers = ['a', 'b'].flatMap((host) =>
        [0, 1, 2, 3].map((n) =>
          spawnNode(supportScript('async-ledger-worker.mjs'), [
            workerDistIndex,
            JSON.stringify(target),
            `host-${host}`,
            `${host}${n}`,
            String(CYCLES),
          ]),
        ),
      );
      children.push(...workers.map((worker) => worker.child));
      const results = await Promise.all(workers.map((worker) => worker.done));
      const reports = results.map((result) => {
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        return JSON.parse(result.stdout.trim()) as {
          errors: string[];
          recorded: number;
          released: number;
          appended: number;
          otherHostsSeen: string[];
        };
      });
      for (const report of reports) {
        expect(report.errors).toEqual([]);
        expect(report).toMatchObject({ recorded: CYCLES, released: CYCLES, appended: CYCLES });
      }
      // Entries of the other host were seen in flight, and never reaped by a pid check.
      expect(reports.some((report) => report.otherHostsSeen.length > 0)).toBe(true);
      const store = await open({ hostId: 'checker' });
      const runs = await store.runs.list();
      expect(runs).toHaveLength(8 * CYCLES);
      const expected = new Set<string>();
      for (const host of ['a', 'b'])
        for (let n = 0; n < 4; n++) for (let i = 0; i < CYCLES; i++) expected.add(`${host}${n}-${i}`);
      expect(new Set(runs.map((run) => run.id))).toEqual(expected);
      expect(await store.ledger.list()).toEqual([]);
      const tracked = await store.sql.query<{ namespace: string; n: number }>(
        'SELECT namespace, COUNT(*) AS n FROM schema_migrations GROUP BY namespace',
      );
      const status = await store.migrationStatus();
      expect(tracked).toEqual([{ namespace: 'store', n: status.namespaces[0]!.known }]);
    }, 300_000);
  });
});
