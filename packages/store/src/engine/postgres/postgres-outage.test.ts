import {
  findPostgresBin,
  postgresRequired,
  startTestPostgres,
  type TestPostgres,
} from '@bullswarm/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AsyncBullswarmStore } from '../../books/async-store-types';
import { type OpenAsyncStoreOptions, openAsyncStore } from '../../books/open-async-store';
import { StoreUnavailableError } from '../../errors/store-unavailable-error';
import { createTestDatabase, type TestDatabase } from '../../test-support/pg-database';

// An outage needs a server of its own to stop and start (the run's shared one serves other files).
const runHere = findPostgresBin() !== undefined || postgresRequired();

describe.skipIf(!runHere)(
  'a Postgres store through an outage (a server of its own, halted and resumed)',
  () => {
    let server: TestPostgres;
    let database: TestDatabase;
    const opened: AsyncBullswarmStore[] = [];
    beforeAll(async () => {
      server = startTestPostgres();
      database = await createTestDatabase(server.url);
    }, 180_000);
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close().catch(() => {});
    });
    afterAll(() => server?.stop());

    const open = async (options: Partial<OpenAsyncStoreOptions> = {}) => {
      const store = await openAsyncStore({
        target: { engine: 'postgres', url: database.url, source: 'test' },
        hostId: 'host-a',
        ...options,
      });
      opened.push(store);
      return store;
    };
    const halted = async <T>(during: () => Promise<T>): Promise<T> => {
      server.halt();
      try {
        return await during();
      } finally {
        server.resume();
      }
    };

    it('an unreachable server is a StoreUnavailableError naming the URL without its password (exit 1: a failure)', async () => {
      const url =
        'postgresql://bullswarm:s3cret-Pw0rd@localhost/bullswarm?host=/nonexistent/bullswarm-socket-dir';
      const error = await openAsyncStore({ target: { engine: 'postgres', url, source: 'test' } }).catch(
        (e: unknown) => e,
      );
      expect(StoreUnavailableError.isInstance(error)).toBe(true);
      const unavailable = error as StoreUnavailableError;
      expect(unavailable).toMatchObject({ reason: 'unreachable', fault: 'failure', operation: 'open' });
      expect(unavailable.location).toBe(
        'postgresql://bullswarm@localhost/bullswarm?host=/nonexistent/bullswarm-socket-dir',
      );
      expect(unavailable.message).toContain(unavailable.location);
      expect(unavailable.message).not.toContain('s3cret-Pw0rd');
      expect(unavailable.message).toContain('never falls back to the local bullswarm.db');
      expect(JSON.stringify(unavailable)).not.toContain('s3cret-Pw0rd');
    });

    it('a connection lost mid-run is retried with back-off: the ledger entry survives, the run is recorded, the heartbeat resumes', async () => {
      const store = await open({ postgres: { reconnectMs: 60_000 } });
      const entry = await store.ledger.record({
        poolId: 'p',
        action: 'run-1',
        startedAt: Date.now(),
        pid: process.pid,
      });
      const run = {
        id: 'run-1',
        poolId: 'p',
        tier: 'high' as const,
        lane: 'build' as const,
        action: 'run-1',
        startedAt: entry.startedAt,
        endedAt: entry.startedAt + 1000,
        stalled: false,
        outcome: 'ok' as const,
        workerMinutes: 0.02,
      };
      server.halt();
      let resumed = false;
      // The writes start while the server is down; it comes back a moment later.
      const pending = Promise.all([store.runs.append(run), store.heartbeat.renewNow(), store.ledger.list()]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      server.resume();
      resumed = true;
      const [, , listed] = await pending;
      expect(resumed).toBe(true);
      expect(listed.map((e) => e.id)).toEqual([entry.id]);
      expect(await store.runs.list()).toMatchObject([{ id: 'run-1', outcome: 'ok' }]);
      expect(await store.ledger.release(entry.id)).toBe(true);
    }, 180_000);

    it('past the reconnect bound the operation fails (StoreUnavailableError "lost"), it never waits longer', async () => {
      const store = await open({ postgres: { reconnectMs: 1500 } });
      await store.ledger.list();
      const started = Date.now();
      const error = await halted(() => store.ledger.list().catch((e: unknown) => e));
      const waited = Date.now() - started;
      expect(StoreUnavailableError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'lost', fault: 'failure' });
      expect((error as StoreUnavailableError).waitedMs).toBeGreaterThanOrEqual(1500);
      // The bound plus one back-off step (at most 2 s) and the halt itself; far below the default 30 s.
      expect(waited).toBeLessThan(20_000);
      expect((error as Error).message).toMatch(/did not come back within \d+ s/);
    }, 180_000);

    it('a write that was on its way when the connection died is not sent again: its outcome is reported unknown', async () => {
      const store = await open({ postgres: { reconnectMs: 60_000 } });
      const write = store.sql.exec('SELECT pg_sleep(30)').catch((e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const error = await halted(() => write);
      expect(StoreUnavailableError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'outcome-unknown' });
      // The store works again once the server is back.
      expect(await store.ledger.list()).toEqual([]);
    }, 180_000);
  },
);
