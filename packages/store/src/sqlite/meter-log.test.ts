import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreInputError } from '../errors/store-input-error';
import { useTempDirs } from '../test-support/temp-dir';
import { coreMigrations } from './core-migrations';
import { type EmbeddedBullswarmStore, openStore } from './open-store';

const tempDir = useTempDirs();
let store: EmbeddedBullswarmStore | undefined;
afterEach(() => store?.close());

const weekly = { kind: 'weekly', usedPct: 31, resetsAt: 9_000, windowMinutes: 10_080 } as const;
const fiveHour = { kind: 'five_hour', usedPct: 12.5, windowMinutes: 300 } as const;

describe('meter log', () => {
  it('retains readings, lists them oldest first by pool and window, and prunes old ones', () => {
    store = openStore({ dbPath: join(tempDir(), 'bullswarm.db') });
    store.meters.appendReadings([
      {
        poolId: 'codex',
        window: 'weekly',
        usedPct: 30,
        resetsAt: 9_000,
        windowMinutes: 10_080,
        readAt: 200,
        source: 'codex-rollout',
      },
      {
        poolId: 'codex',
        window: 'five_hour',
        usedPct: 10,
        windowMinutes: 300,
        readAt: 200,
        source: 'codex-rollout',
      },
      {
        poolId: 'codex',
        window: 'weekly',
        usedPct: 20,
        windowMinutes: 10_080,
        readAt: 100,
        source: 'manual',
      },
      { poolId: 'grok', window: 'weekly', usedPct: 5, windowMinutes: 10_080, readAt: 150, source: 'file' },
    ]);
    store.meters.appendReadings([]);
    expect(store.meters.listReadings('codex', { window: 'weekly' })).toEqual([
      {
        poolId: 'codex',
        window: 'weekly',
        usedPct: 20,
        windowMinutes: 10_080,
        readAt: 100,
        source: 'manual',
      },
      {
        poolId: 'codex',
        window: 'weekly',
        usedPct: 30,
        resetsAt: 9_000,
        windowMinutes: 10_080,
        readAt: 200,
        source: 'codex-rollout',
      },
    ]);
    expect(store.meters.listReadings('codex').map((r) => r.readAt)).toEqual([100, 200, 200]);
    expect(store.meters.listReadings('codex', { since: 150 }).map((r) => r.window)).toEqual([
      'weekly',
      'five_hour',
    ]);
    expect(store.meters.pruneReadings(150)).toBe(1);
    expect(store.meters.listReadings('codex').map((r) => r.readAt)).toEqual([200, 200]);
    expect(store.meters.listReadings('grok')).toHaveLength(1);
  });

  it('rejects a whole batch when one reading is malformed', () => {
    store = openStore({ dbPath: join(tempDir(), 'bullswarm.db') });
    const s = store;
    expect(() =>
      s.meters.appendReadings([
        { poolId: 'codex', window: 'weekly', usedPct: 30, windowMinutes: 10_080, readAt: 200, source: 'x' },
        {
          poolId: 'codex',
          window: 'daily' as never,
          usedPct: 30,
          windowMinutes: 10_080,
          readAt: 200,
          source: 'x',
        },
      ]),
    ).toThrow(/rows\[1\]\.window must be one of five_hour, weekly, monthly/);
    expect(s.meters.listReadings('codex')).toEqual([]);
  });

  it('keeps one cache entry per pool and marks it for re-read', () => {
    store = openStore({ dbPath: join(tempDir(), 'bullswarm.db') });
    expect(store.meters.getCache('codex')).toBeUndefined();
    store.meters.forceReread('codex');
    expect(store.meters.getCache('codex')).toBeUndefined();
    store.meters.setCache({
      poolId: 'codex',
      windows: [weekly, fiveHour],
      readAt: 100,
      source: 'codex-rollout',
      failures: 0,
    });
    expect(store.meters.getCache('codex')).toEqual({
      poolId: 'codex',
      windows: [weekly, fiveHour],
      readAt: 100,
      source: 'codex-rollout',
      failures: 0,
    });
    store.meters.forceReread('codex');
    expect(store.meters.getCache('codex')?.forceReread).toBe(true);
    const failed = {
      poolId: 'codex',
      windows: [weekly],
      readAt: 100,
      source: 'codex-rollout',
      rateLimited: true,
      meterError: 'HTTP 500',
      meterErrorDetail: 'GET https://example.test/usage: HTTP 500',
      meterHoldUntil: 400,
      failures: 2,
    };
    store.meters.setCache(failed);
    expect(store.meters.getCache('codex')).toEqual(failed);
    expect(() =>
      store?.meters.setCache({ ...failed, windows: [{ ...weekly, usedPct: 'lots' as never }] }),
    ).toThrow(StoreInputError);
  });

  it('adds meter_error_detail to a version-1 database, keeping its cache rows', () => {
    const dbPath = join(tempDir(), 'bullswarm.db');
    // A database as the first release left it: only the store's migration 1 applied.
    const v1 = new Database(dbPath);
    v1.exec((coreMigrations.migrations[0] as { sqlite: string }).sqlite);
    v1.exec(`CREATE TABLE schema_migrations (namespace TEXT NOT NULL, version INTEGER NOT NULL,
      applied_at INTEGER NOT NULL, PRIMARY KEY (namespace, version))`);
    v1.prepare("INSERT INTO schema_migrations VALUES ('store', 1, 0)").run();
    v1.pragma('user_version = 1');
    v1.prepare(
      `INSERT INTO meter_cache (pool, windows, read_at, source, meter_error, meter_hold_until, failures)
       VALUES ('grok', '[]', 0, 'file', 'no meter file', 500, 1)`,
    ).run();
    v1.close();
    store = openStore({ dbPath });
    expect(store.schemaVersion('store')).toBe(coreMigrations.migrations.length);
    expect(store.meters.getCache('grok')).toEqual({
      poolId: 'grok',
      windows: [],
      readAt: 0,
      source: 'file',
      meterError: 'no meter file',
      meterHoldUntil: 500,
      failures: 1,
    });
    store.meters.setCache({
      poolId: 'grok',
      windows: [],
      readAt: 0,
      source: 'file',
      meterError: 'bad meter reading',
      meterErrorDetail: '/m.json is not a valid bullswarm meter reading: windows[0].resetsAt: …',
      meterHoldUntil: 600,
      failures: 2,
    });
    expect(store.meters.getCache('grok')?.meterErrorDetail).toBe(
      '/m.json is not a valid bullswarm meter reading: windows[0].resetsAt: …',
    );
  });

  it('sets, replaces and clears manual readings', () => {
    store = openStore({ dbPath: join(tempDir(), 'bullswarm.db') });
    expect(store.meters.getManual('grok')).toBeUndefined();
    store.meters.setManual('grok', [weekly], 100);
    store.meters.setManual('grok', [fiveHour], 200);
    expect(store.meters.getManual('grok')).toEqual({ windows: [fiveHour], setAt: 200 });
    store.meters.setManual('grok', undefined, 300);
    expect(store.meters.getManual('grok')).toBeUndefined();
  });
});

describe('probe cache', () => {
  it('keeps the latest result per pool and model', () => {
    store = openStore({ dbPath: join(tempDir(), 'bullswarm.db') });
    expect(store.probes.get('opencode', 'opencode/union-alpha')).toBeUndefined();
    store.probes.set({
      poolId: 'opencode',
      model: 'opencode/union-alpha',
      ok: false,
      reason: '404',
      checkedAt: 100,
    });
    store.probes.set({ poolId: 'opencode', model: 'other', ok: true, checkedAt: 150 });
    expect(store.probes.get('opencode', 'opencode/union-alpha')).toEqual({
      poolId: 'opencode',
      model: 'opencode/union-alpha',
      ok: false,
      reason: '404',
      checkedAt: 100,
    });
    store.probes.set({ poolId: 'opencode', model: 'opencode/union-alpha', ok: true, checkedAt: 200 });
    expect(store.probes.get('opencode', 'opencode/union-alpha')).toEqual({
      poolId: 'opencode',
      model: 'opencode/union-alpha',
      ok: true,
      checkedAt: 200,
    });
    expect(store.probes.get('opencode', 'other')?.ok).toBe(true);
  });
});
