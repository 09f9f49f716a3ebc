import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreTarget } from '../engine/store-target';
import { StoreInputError } from '../errors/store-input-error';
import { StoreMigrationError } from '../errors/store-migration-error';
import { storeEngines } from '../test-support/store-engines';
import { useTempDirs } from '../test-support/temp-dir';
import type { AsyncBullswarmStore } from './async-store-types';
import { type OpenAsyncStoreOptions, openAsyncStore, openAsyncStoreIfExists } from './open-async-store';

const tempDir = useTempDirs();
const opened: AsyncBullswarmStore[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A pid that is not running: a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

const T0 = Date.parse('2026-12-01T12:00:00Z');

describe.each(storeEngines())('the store contract on $engine', (engine) => {
  let target: StoreTarget;
  const open = async (options: Partial<OpenAsyncStoreOptions> = {}) => {
    const store = await openAsyncStore({ target, hostId: 'host-a', ...options });
    opened.push(store);
    return store;
  };
  const fresh = async () => {
    const made = await engine.fresh(tempDir);
    target = made.target;
    cleanups.push(made.cleanup);
  };

  describe.skipIf(!engine.available)('(server available)', () => {
    it('ledger: record, list (by pool), release; a duplicate id is refused', async () => {
      await fresh();
      const store = await open();
      expect(store.engine).toBe(engine.engine);
      const a = await store.ledger.record({
        poolId: 'p1',
        action: 'run-a',
        tier: 'high',
        lane: 'build',
        startedAt: T0,
        pid: process.pid,
        expectedMinutes: 2.5,
      });
      const b = await store.ledger.record({
        id: 'fixed',
        poolId: 'p2',
        action: 'run-b',
        startedAt: T0 + 1,
        pid: process.pid,
      });
      expect(a).toMatchObject({
        poolId: 'p1',
        host: 'host-a',
        tier: 'high',
        lane: 'build',
        expectedMinutes: 2.5,
        startedAt: T0,
      });
      expect((await store.ledger.list()).map((e) => e.id)).toEqual([a.id, 'fixed']);
      expect(await store.ledger.list({ poolId: 'p2' })).toEqual([b]);
      const duplicate = await store.ledger
        .record({ id: 'fixed', poolId: 'p3', action: 'other', startedAt: T0, pid: process.pid })
        .catch((error: unknown) => error);
      expect(StoreInputError.isInstance(duplicate)).toBe(true);
      expect(await store.ledger.release(a.id)).toBe(true);
      expect(await store.ledger.release(a.id)).toBe(false);
      expect((await store.ledger.list()).map((e) => e.id)).toEqual(['fixed']);
    });

    it("ledger: this host's dead dispatcher is reaped at once; another host's entry lives until its heartbeat is older than the TTL", async () => {
      await fresh();
      let now = T0;
      const clock = () => now;
      const hostA = await open({ clock, heartbeat: { intervalMs: 1000, ttlMs: 5000 } });
      const hostB = await open({ hostId: 'host-b', clock, heartbeat: { intervalMs: 1000, ttlMs: 5000 } });
      const dead = deadPid();
      await hostA.ledger.record({ id: 'a-dead', poolId: 'p', action: 'x', startedAt: T0, pid: dead });
      await hostA.ledger.record({ id: 'a-live', poolId: 'p', action: 'y', startedAt: T0, pid: process.pid });
      // Host B sees both (it never checks another host's pids) …
      expect((await hostB.ledger.list()).map((e) => e.id).sort()).toEqual(['a-dead', 'a-live']);
      // … host A reaps its own dead dispatcher by its pid.
      expect(await hostA.ledger.reap()).toBe(1);
      now = T0 + 5000;
      expect((await hostB.ledger.list()).map((e) => e.id)).toEqual(['a-live']);
      // A renewal moves the heartbeat: still alive at T0 + 9000.
      now = T0 + 4000;
      expect(await hostA.ledger.renew()).toBe(1);
      now = T0 + 9000;
      expect((await hostB.ledger.list()).map((e) => e.id)).toEqual(['a-live']);
      now = T0 + 9001;
      expect(await hostB.ledger.list()).toEqual([]);
    });

    it('ledger: the heartbeat renews this process’s entries while it holds one, and stops after the last release', async () => {
      await fresh();
      const store = await open({ heartbeat: { intervalMs: 20, ttlMs: 1000 } });
      const entry = await store.ledger.record({
        poolId: 'p',
        action: 'x',
        startedAt: Date.now(),
        pid: process.pid,
      });
      const read = async () =>
        (await store.sql.get<{ heartbeat_at: number }>('SELECT heartbeat_at FROM inflight WHERE id = ?', [
          entry.id,
        ]))!.heartbeat_at;
      const first = await read();
      expect(typeof first).toBe('number');
      await store.heartbeat.renewNow();
      const deadline = Date.now() + 10_000;
      while ((await read()) === first && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(await read()).toBeGreaterThan(first);
      await store.ledger.release(entry.id);
      expect((store.heartbeat as unknown as { lastError: unknown }).lastError).toBeUndefined();
    });

    it('runs: append replaces by id; newest first; filters and limit', async () => {
      await fresh();
      const store = await open();
      const run = (id: string, startedAt: number, extra = {}) => ({
        id,
        poolId: 'p',
        tier: 'high' as const,
        lane: 'build' as const,
        action: id,
        startedAt,
        endedAt: startedAt + 60_000,
        stalled: false,
        outcome: 'ok' as const,
        workerMinutes: 1,
        ...extra,
      });
      await store.runs.append(run('r1', T0));
      await store.runs.append(
        run('r2', T0 + 1000, { poolId: 'q', stalled: true, model: 'm', failureKind: 'crash' }),
      );
      await store.runs.append(run('r3', T0 + 1000));
      await store.runs.append(run('r1', T0, { outcome: 'failed' }));
      const all = await store.runs.list();
      expect(all.map((r) => r.id)).toEqual(['r3', 'r2', 'r1']);
      expect(all[2]).toMatchObject({ outcome: 'failed', stalled: false, startedAt: T0 });
      expect(all[1]).toMatchObject({ stalled: true, model: 'm', failureKind: 'crash' });
      expect((await store.runs.list({ poolId: 'p', since: T0 + 1 })).map((r) => r.id)).toEqual(['r3']);
      expect((await store.runs.list({ limit: 1 })).map((r) => r.id)).toEqual(['r3']);
    });

    it("runs: a pool's newest runs, asked again and again, see every append, from this store or another", async () => {
      await fresh();
      const store = await open();
      const other = await open();
      const run = (id: string, startedAt: number, extra = {}) => ({
        id,
        poolId: 'p',
        tier: 'high' as const,
        lane: 'build' as const,
        action: id,
        startedAt,
        endedAt: startedAt + 60_000,
        stalled: false,
        outcome: 'ok' as const,
        workerMinutes: 1,
        ...extra,
      });
      const newest = async (since = T0, limit = 3) =>
        (await store.runs.list({ poolId: 'p', since, limit })).map((r) => `${r.id}:${r.outcome}`);
      expect(await newest()).toEqual([]);
      await store.runs.append(run('a', T0 + 10));
      await store.runs.append(run('b', T0 + 30));
      await store.runs.append(run('x', T0 + 40, { poolId: 'q' }));
      expect(await newest()).toEqual(['b:ok', 'a:ok']);
      // Started earlier than b, recorded later (a long run): ranked by start, then insertion.
      await store.runs.append(run('c', T0 + 20));
      await store.runs.append(run('d', T0 + 30));
      expect(await newest()).toEqual(['d:ok', 'b:ok', 'c:ok']);
      // Another connection's append, and a re-sent run with another outcome.
      await other.runs.append(run('e', T0 + 50));
      expect(await newest()).toEqual(['e:ok', 'd:ok', 'b:ok']);
      await store.runs.append(run('d', T0 + 30, { outcome: 'failed' }));
      expect(await newest()).toEqual(['e:ok', 'd:failed', 'b:ok']);
      // The window moves on; a smaller or larger limit; an earlier window again.
      expect(await newest(T0 + 31)).toEqual(['e:ok']);
      expect(await newest(T0 + 31, 5)).toEqual(['e:ok']);
      expect(await newest(T0, 5)).toEqual(['e:ok', 'd:failed', 'b:ok', 'c:ok', 'a:ok']);
      expect(await newest(T0, 2)).toEqual(['e:ok', 'd:failed']);
    });

    it('meters: readings, cache with force-reread, manual readings', async () => {
      await fresh();
      const store = await open();
      await store.meters.appendReadings([
        {
          poolId: 'p',
          window: 'weekly',
          usedPct: 10,
          windowMinutes: 10080,
          readAt: T0,
          source: 'file',
          resetsAt: T0 + 9e8,
        },
        {
          poolId: 'p',
          window: 'five_hour',
          usedPct: 20.5,
          windowMinutes: 300,
          readAt: T0 + 1,
          source: 'file',
        },
      ]);
      expect(await store.meters.listReadings('p', { window: 'weekly' })).toEqual([
        {
          poolId: 'p',
          window: 'weekly',
          usedPct: 10,
          windowMinutes: 10080,
          readAt: T0,
          source: 'file',
          resetsAt: T0 + 9e8,
        },
      ]);
      expect((await store.meters.listReadings('p', { since: T0 + 1 })).map((r) => r.usedPct)).toEqual([20.5]);
      expect(await store.meters.pruneReadings(T0 + 1)).toBe(1);
      const windows = [{ kind: 'weekly' as const, usedPct: 40, windowMinutes: 10080, resetsAt: T0 + 1000 }];
      await store.meters.setCache({
        poolId: 'p',
        windows,
        readAt: T0,
        source: 'file',
        failures: 0,
        rateLimited: false,
        meterError: 'x',
      });
      await store.meters.forceReread('p');
      expect(await store.meters.getCache('p')).toEqual({
        poolId: 'p',
        windows,
        readAt: T0,
        source: 'file',
        failures: 0,
        rateLimited: false,
        meterError: 'x',
        forceReread: true,
      });
      await store.meters.setManual('p', windows, T0);
      expect(await store.meters.getManual('p')).toEqual({ windows, setAt: T0 });
      await store.meters.setManual('p', undefined, T0);
      expect(await store.meters.getManual('p')).toBeUndefined();
    });

    it('probes: the latest result per pool and model', async () => {
      await fresh();
      const store = await open();
      await store.probes.set({ poolId: 'p', model: 'm', ok: false, reason: '404', checkedAt: T0 });
      await store.probes.set({ poolId: 'p', model: 'm', ok: true, checkedAt: T0 + 1 });
      expect(await store.probes.get('p', 'm')).toEqual({
        poolId: 'p',
        model: 'm',
        ok: true,
        checkedAt: T0 + 1,
      });
      expect(await store.probes.get('p', 'other')).toBeUndefined();
    });

    it('claims: one owner; a second claim is refused naming the holder; a dead local holder and a stale remote one are taken over', async () => {
      await fresh();
      let now = T0;
      const a = await open({ clock: () => now, heartbeat: { intervalMs: 1000, ttlMs: 5000 } });
      const b = await open({
        hostId: 'host-b',
        clock: () => now,
        heartbeat: { intervalMs: 1000, ttlMs: 5000 },
      });
      const first = await a.claims.claim('workflow-run', 'run-1');
      expect(first.claimed).toBe(true);
      const second = await b.claims.claim('workflow-run', 'run-1');
      expect(second).toMatchObject({
        claimed: false,
        holder: { host: 'host-a', pid: process.pid, local: false },
      });
      expect(await a.claims.holder('workflow-run', 'run-1')).toMatchObject({ host: 'host-a', local: true });
      now = T0 + 5001;
      const taken = await b.claims.claim('workflow-run', 'run-1');
      expect(taken.claimed).toBe(true);
      // The old claim's release removes nothing of the new owner's.
      if (first.claimed) expect(await first.claim.release()).toBe(false);
      expect(await a.claims.holder('workflow-run', 'run-1')).toMatchObject({ host: 'host-b' });
      // A holder of this host whose process is gone is taken over at once.
      await a.sql.exec("UPDATE store_claims SET host = 'host-a', pid = ? WHERE name = 'run-1'", [deadPid()]);
      expect((await a.claims.claim('workflow-run', 'run-1')).claimed).toBe(true);
    });

    it('transactions: the books bound to it, all or nothing, and calls on the store inside join it', async () => {
      await fresh();
      const store = await open();
      const failed = await store
        .transaction(async (tx) => {
          await tx.ledger.record({ id: 'in-tx', poolId: 'p', action: 'x', startedAt: T0, pid: process.pid });
          expect((await store.ledger.list()).map((e) => e.id)).toEqual(['in-tx']);
          throw new Error('changed my mind');
        })
        .catch((error: Error) => error.message);
      expect(failed).toBe('changed my mind');
      expect(await store.ledger.list()).toEqual([]);
      const entry = await store.transaction(
        async (tx) => {
          const inFlight = await tx.ledger.list();
          return tx.ledger.record({
            poolId: `p${inFlight.length}`,
            action: 'x',
            startedAt: T0,
            pid: process.pid,
          });
        },
        { lock: 'store.ledger' },
      );
      expect(await store.ledger.list()).toEqual([entry]);
    });

    it('the SQL layer: ? and @name placeholders, BIGINT as numbers, booleans as 1/0, RETURNING, IS NOT DISTINCT FROM', async () => {
      await fresh();
      const store = await open();
      await store.ensureMigrations({
        namespace: 'contract-test',
        migrations: [
          {
            sqlite:
              'CREATE TABLE contract_items (id INTEGER PRIMARY KEY AUTOINCREMENT, at BIGINT NOT NULL, flag INTEGER NOT NULL, note TEXT)',
            postgres:
              'CREATE TABLE contract_items (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, at BIGINT NOT NULL, flag INTEGER NOT NULL, note TEXT)',
          },
        ],
      });
      const big = 4_102_444_800_000; // 2100-01-01, past 2^31
      const [row] = await store.sql.query<{ id: number }>(
        'INSERT INTO contract_items (at, flag, note) VALUES (?, ?, ?) RETURNING id',
        [big, true, null],
      );
      expect(typeof row!.id).toBe('number');
      await store.sql.exec("INSERT INTO contract_items (at, flag, note) VALUES (@at, @flag, 'it''s @at ?')", {
        at: big + 1,
        flag: false,
      });
      const rows = await store.sql.query<{ at: number; flag: number; note: string | null }>(
        'SELECT at, flag, note FROM contract_items WHERE note IS NOT DISTINCT FROM ? ORDER BY id',
        [null],
      );
      expect(rows).toEqual([{ at: big, flag: 1, note: null }]);
      const count = await store.sql.get<{ n: number }>(
        'SELECT COUNT(*) AS n, SUM(at) AS total FROM contract_items',
      );
      expect(count).toEqual({ n: 2, total: 2 * big + 1 });
      const status = await store.migrationStatus();
      expect(status.namespaces.find((n) => n.namespace === 'contract-test')).toEqual({
        namespace: 'contract-test',
        applied: 1,
        known: 1,
        pending: 0,
        ahead: false,
      });
    });

    it('migrations: status and migrate; applied once; a newer database is accepted; the store namespace is reserved', async () => {
      await fresh();
      const set = {
        namespace: 'later',
        migrations: ['CREATE TABLE later_a (x TEXT)', 'CREATE TABLE later_b (x TEXT)'],
      };
      const first = await open();
      const core = (await first.migrationStatus()).namespaces.find((n) => n.namespace === 'store');
      expect(core).toMatchObject({ pending: 0, ahead: false });
      expect(core!.applied).toBeGreaterThanOrEqual(5);
      await first.ensureMigrations({ namespace: 'later', migrations: [set.migrations[0]!] });
      const second = await open({ migrations: [set] });
      expect((await second.migrationStatus()).namespaces.find((n) => n.namespace === 'later')).toMatchObject({
        applied: 2,
        pending: 0,
      });
      // The first store still knows one step only: the database is ahead, and that is accepted.
      expect((await first.migrationStatus()).namespaces.find((n) => n.namespace === 'later')).toMatchObject({
        applied: 2,
        known: 1,
        ahead: true,
      });
      expect(await second.migrate()).toEqual([]);
      const reserved = await first
        .ensureMigrations({ namespace: 'store', migrations: ['SELECT 1'] })
        .catch((e: unknown) => e);
      expect(StoreMigrationError.isInstance(reserved)).toBe(true);
    });

    it('opening for a read-only command creates nothing when there is no store yet', async () => {
      await fresh();
      expect(await openAsyncStoreIfExists({ target, hostId: 'host-a' })).toBeUndefined();
      await (await open()).close();
      const existing = await openAsyncStoreIfExists({ target, hostId: 'host-a' });
      expect(existing?.engine).toBe(engine.engine);
      await existing?.close();
    });
  });
});
