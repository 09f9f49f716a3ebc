import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { AsyncBullswarmStore } from '../books/async-store-types';
import { openAsyncStore } from '../books/open-async-store';
import { InvalidEnvironmentError } from '../errors/invalid-environment-error';
import { StoreInputError } from '../errors/store-input-error';
import { catchError } from '../test-support/catch-error';
import { createTestDatabase, type TestDatabase } from '../test-support/pg-database';
import { useTempDirs } from '../test-support/temp-dir';
import { postgresValues, toPostgresStatement } from './placeholders';
import { advisoryLockKey } from './postgres/advisory-lock';
import { ReconnectClock } from './postgres/reconnect-policy';
import { parseInt8 } from './postgres/type-parsers';
import { resolveStoreTarget } from './store-target';
import { redactStoreUrl } from './store-url';

const tempDir = useTempDirs();
const opened: AsyncBullswarmStore[] = [];
const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const database of databases.splice(0)) await database.drop();
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

const pgUrl = inject('pgUrl');

describe.skipIf(pgUrl === '')('the Postgres engine: named statements', () => {
  /** A store on a database of its own, with one pooled connection (so every call meets the same session). */
  const openOne = async () => {
    const database = await createTestDatabase(pgUrl);
    databases.push(database);
    const store = await openAsyncStore({
      target: { engine: 'postgres', url: database.url, source: 'test' },
      hostId: 'host-a',
      postgres: { poolSize: 1 },
    });
    opened.push(store);
    return { store, url: database.url };
  };
  /** A statement from another connection (another host's migration). */
  const elsewhere = async (url: string, sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  it('a statement with parameters is prepared once per connection, under a name made from its text', async () => {
    const { store } = await openOne();
    const names = await store.transaction(async (tx) => {
      await tx.sql.get('SELECT 1 AS one WHERE 1 = ?', [1]);
      await tx.sql.get('SELECT 1 AS one WHERE 1 = ?', [1]);
      return tx.sql.query<{ name: string }>(
        "SELECT name FROM pg_prepared_statements WHERE statement LIKE 'SELECT 1 AS one%'",
      );
    });
    expect(names).toHaveLength(1);
    expect(names[0]?.name).toMatch(/^bswm_[0-9a-f]{24}$/);
  });

  it('a SELECT * prepared before another host adds a column returns the new column, in and out of a transaction', async () => {
    const { store, url } = await openOne();
    await store.sql.execScript(
      "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT); INSERT INTO t VALUES (1, 'x')",
    );
    const read = () => store.sql.get<Record<string, unknown>>('SELECT * FROM t WHERE id = ?', [1]);
    const readInside = () =>
      store.transaction(async (tx) =>
        tx.sql.get<Record<string, unknown>>('SELECT * FROM t WHERE id > ?', [0]),
      );
    expect(await read()).toEqual({ id: 1, a: 'x' });
    expect(await readInside()).toEqual({ id: 1, a: 'x' });
    await elsewhere(url, "ALTER TABLE t ADD COLUMN b TEXT NOT NULL DEFAULT 'y'");
    // The server refuses the prepared plans (result columns changed); the engine sends them unnamed.
    expect(await read()).toEqual({ id: 1, a: 'x', b: 'y' });
    expect(await readInside()).toEqual({ id: 1, a: 'x', b: 'y' });
    expect(await read()).toEqual({ id: 1, a: 'x', b: 'y' });
  });

  it('a transaction whose statement was refused for its name runs again, even when fn caught the error', async () => {
    const { store, url } = await openOne();
    await store.sql.execScript(
      "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT); INSERT INTO t VALUES (1, 'x')",
    );
    const runs: unknown[] = [];
    const once = () =>
      store.transaction(async (tx) => {
        const row = await tx.sql.get('SELECT * FROM t WHERE id = ?', [1]).catch((error: unknown) => error);
        runs.push(row);
        await tx.sql.exec('UPDATE t SET a = ? WHERE id = ?', [`run-${runs.length}`, 1]);
      });
    await once();
    await elsewhere(url, 'ALTER TABLE t ADD COLUMN b INTEGER');
    runs.length = 0;
    await once();
    // First run: the read failed (caught) and the transaction was rolled back; the second run commits.
    expect(runs).toHaveLength(2);
    expect(runs[1]).toEqual({ id: 1, a: 'run-1', b: null });
    expect(await store.sql.get('SELECT a FROM t WHERE id = ?', [1])).toEqual({ a: 'run-2' });
  });

  it('a server that lost the prepared statements (a pooler that does not keep them): statements are sent unnamed', async () => {
    const { store } = await openOne();
    await store.ledger.record({ id: 'e1', poolId: 'p', action: 'x', startedAt: 1, pid: process.pid });
    // The pooled connection's statements vanish on the server while pg believes them parsed.
    await store.sql.execScript('DEALLOCATE ALL');
    expect(
      await store.ledger.record({ id: 'e2', poolId: 'p', action: 'x', startedAt: 2, pid: process.pid }),
    ).toMatchObject({
      id: 'e2',
    });
    expect(await store.ledger.release('e1')).toBe(true);
    expect((await store.ledger.list()).map((entry) => entry.id)).toEqual(['e2']);
    const prepared = await store.sql.query('SELECT name FROM pg_prepared_statements');
    expect(prepared).toEqual([]);
  });
});
