import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AsyncBullswarmStore } from '../books/async-store-types';
import { openAsyncStore } from '../books/open-async-store';
import { InvalidEnvironmentError } from '../errors/invalid-environment-error';
import { StoreInputError } from '../errors/store-input-error';
import { catchError } from '../test-support/catch-error';
import { useTempDirs } from '../test-support/temp-dir';
import { postgresValues, toPostgresStatement } from './placeholders';
import { advisoryLockKey } from './postgres/advisory-lock';
import { ReconnectClock } from './postgres/reconnect-policy';
import { parseInt8 } from './postgres/type-parsers';
import { resolveStoreTarget } from './store-target';
import { redactStoreUrl } from './store-url';

const tempDir = useTempDirs();
const opened: AsyncBullswarmStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

describe('placeholders for Postgres', () => {
  it('numbers ? in order and skips literals, quoted names and comments', () => {
    const sql = `SELECT '?', "a?b", x FROM t -- is it ?\n WHERE a = ? AND b = ?`;
    expect(toPostgresStatement(sql).text).toBe(
      `SELECT '?', "a?b", x FROM t -- is it ?\n WHERE a = $1 AND b = $2`,
    );
    expect(postgresValues(toPostgresStatement(sql), sql, [true, 'x'])).toEqual([1, 'x']);
  });

  it('gives a name used twice one $n, and names a missing value', () => {
    const sql = 'UPDATE t SET a = @now, b = @now + ttl WHERE h = @holder';
    const statement = toPostgresStatement(sql);
    expect(statement.text).toBe('UPDATE t SET a = $1, b = $1 + ttl WHERE h = $2');
    expect(postgresValues(statement, sql, { holder: 'x', now: 5, extra: 1 })).toEqual([5, 'x']);
    const missing = catchError(() => postgresValues(statement, sql, { now: 5 }));
    expect(StoreInputError.isInstance(missing)).toBe(true);
    expect((missing as Error).message).toContain('@holder');
  });

  it('refuses ? and @name in one statement', () => {
    expect(StoreInputError.isInstance(catchError(() => toPostgresStatement('SELECT ? + @a')))).toBe(true);
  });
});

describe('store URLs and targets', () => {
  it('a printed URL never holds its password', () => {
    expect(redactStoreUrl('postgres://bs:s3cret@db.example:5432/bullswarm?sslmode=require')).toBe(
      'postgres://bs@db.example:5432/bullswarm?sslmode=require',
    );
    expect(redactStoreUrl('postgresql://bs@/x?host=/run/pg&password=s3cret')).not.toContain('s3cret');
    expect(redactStoreUrl('postgres://bs:s3cret@')).not.toContain('s3cret');
  });

  it('BULLSWARM_STORE_URL, then config.storeUrl, then the home file; a bad URL is refused without its password', () => {
    const dbPath = '/home/u/.bullswarm/bullswarm.db';
    expect(resolveStoreTarget({ env: {}, dbPath })).toEqual({ engine: 'sqlite', dbPath });
    expect(resolveStoreTarget({ env: { BULLSWARM_STORE_URL: '' }, dbPath })).toEqual({
      engine: 'sqlite',
      dbPath,
    });
    expect(resolveStoreTarget({ env: {}, dbPath, configUrl: 'postgres://a@h/db' })).toMatchObject({
      engine: 'postgres',
      source: 'state.json config.storeUrl',
    });
    expect(
      resolveStoreTarget({
        env: { BULLSWARM_STORE_URL: 'postgresql://b@h/db' },
        dbPath,
        configUrl: 'postgres://a@h/db',
      }),
    ).toEqual({ engine: 'postgres', url: 'postgresql://b@h/db', source: 'BULLSWARM_STORE_URL' });
    const bad = catchError(() =>
      resolveStoreTarget({ env: { BULLSWARM_STORE_URL: 'mysql://u:s3cret@h/db' }, dbPath }),
    );
    expect(InvalidEnvironmentError.isInstance(bad)).toBe(true);
    expect((bad as Error).message).toContain('BULLSWARM_STORE_URL');
    expect((bad as Error).message).toContain(dbPath);
    expect((bad as Error).message).not.toContain('s3cret');
  });
});

describe('Postgres helpers', () => {
  it('BIGINT values are numbers, and an unsafe one is an error, not a rounded number', () => {
    expect(parseInt8('1764590400000')).toBe(1_764_590_400_000);
    expect(() => parseInt8('9007199254740993')).toThrow(RangeError);
  });

  it('advisory lock keys are stable per name, in bullswarm’s own key space', () => {
    expect(advisoryLockKey('store.ledger')).toEqual(advisoryLockKey('store.ledger'));
    expect(advisoryLockKey('store.ledger')[1]).not.toBe(advisoryLockKey('store.migrations')[1]);
    expect(advisoryLockKey('x')[0]).toBe(0x6273776d);
  });

  it('the reconnect back-off starts at ≤ 100 ms, grows to ≤ 2 s, and ends at the bound', () => {
    const clock = new ReconnectClock(50_000);
    const delays = Array.from({ length: 8 }, () => clock.nextDelay()!);
    expect(delays[0]).toBeLessThanOrEqual(100);
    expect(delays[0]).toBeGreaterThanOrEqual(50);
    expect(Math.max(...delays)).toBeLessThanOrEqual(2000);
    expect(delays[7]).toBeGreaterThanOrEqual(1000);
    expect(new ReconnectClock(0).nextDelay()).toBeUndefined();
  });
});

describe('the SQLite engine', () => {
  it('a statement from outside an open transaction waits for its commit instead of joining it', async () => {
    const store = await openAsyncStore({
      target: { engine: 'sqlite', dbPath: join(tempDir(), 'bullswarm.db') },
    });
    opened.push(store);
    // Started before the transaction, so its async context is outside it.
    const ready = new Promise((resolve) => setTimeout(resolve, 20));
    const outside = ready.then(() => store.sql.query<{ id: string }>('SELECT id FROM inflight'));
    const rolledBack = ready.then(() =>
      store.sql.exec("INSERT INTO probes (pool, model, ok, checked_at) VALUES ('p', 'm', 1, 0)"),
    );
    await store
      .transaction(async (tx) => {
        await tx.ledger.record({ id: 'e1', poolId: 'p', action: 'x', startedAt: 0, pid: process.pid });
        await new Promise((resolve) => setTimeout(resolve, 100));
        throw new Error('roll back');
      })
      .catch(() => {});
    // Had they joined, the insert would have been rolled back with the transaction.
    expect(await outside).toEqual([]);
    await rolledBack;
    expect(await store.probes.get('p', 'm')).toMatchObject({ ok: true });
  });
});
