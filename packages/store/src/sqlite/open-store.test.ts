import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreBusyError } from '../errors/store-busy-error';
import { StoreMigrationError } from '../errors/store-migration-error';
import { StoreOpenError } from '../errors/store-open-error';
import { catchError } from '../test-support/catch-error';
import { useTempDirs } from '../test-support/temp-dir';
import { coreMigrations } from './core-migrations';
import type { StoreMigrations } from './migrations';
import {
  type EmbeddedBullswarmStore,
  type OpenStoreOptions,
  openStore,
  openStoreIfExists,
} from './open-store';

const tempDir = useTempDirs();
const opened: { close(): void }[] = [];
afterEach(() => {
  for (const handle of opened.splice(0).reverse()) handle.close();
});

function open(options: OpenStoreOptions): EmbeddedBullswarmStore {
  const store = openStore(options);
  opened.push(store);
  return store;
}

const swarm = (migrations: StoreMigrations['migrations']): StoreMigrations => ({
  namespace: 'swarm',
  migrations,
});
const leases = 'CREATE TABLE swarm_leases (id TEXT PRIMARY KEY, holder TEXT NOT NULL)';
const seed = "INSERT INTO swarm_leases (id, holder) VALUES ('seed', 'migration')";

describe('openStore', () => {
  it('creates the directory and database with WAL, NORMAL sync, foreign keys and a busy timeout', () => {
    const dbPath = join(tempDir(), 'home', 'bullswarm.db');
    const store = open({ dbPath });
    const db = store.database;
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('user_version', { simple: true })).toBe(coreMigrations.migrations.length);
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((row) => row.name);
    expect(tables).toEqual([
      'inflight',
      'meter_cache',
      'meter_manual',
      'meter_readings',
      'probes',
      'runs',
      'schema_migrations',
      'store_claims',
    ]);
    expect(store.schemaVersion('store')).toBe(coreMigrations.migrations.length);
    expect(store.dbPath).toBe(dbPath);
  });

  it('opens nothing and creates nothing for a read-only command when the database is missing', () => {
    const dir = join(tempDir(), 'home');
    expect(openStoreIfExists({ dbPath: join(dir, 'bullswarm.db') })).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
    open({ dbPath: join(dir, 'bullswarm.db') });
    const again = openStoreIfExists({ dbPath: join(dir, 'bullswarm.db') });
    expect(again).toBeDefined();
    again?.close();
  });

  it('names the file when it is not a SQLite database', () => {
    const dbPath = join(tempDir(), 'bullswarm.db');
    writeFileSync(
      dbPath,
      'this is not a database, just some text that is long enough to have a header'.repeat(20),
    );
    const error = catchError(() => openStore({ dbPath })) as StoreOpenError;
    expect(StoreOpenError.isInstance(error)).toBe(true);
    expect(error.dbPath).toBe(dbPath);
    expect(error.code).toBe('SQLITE_NOTADB');
    expect(error.message).toMatch(/not a valid SQLite database; move it aside/);
  });

  it('says once that an empty (0-byte) database file is started over, and never for a new one', () => {
    const dir = tempDir();
    const told: string[] = [];
    const onStartOver = (message: string) => told.push(message);
    open({ dbPath: join(dir, 'fresh.db'), onStartOver });
    expect(told).toEqual([]);
    const dbPath = join(dir, 'bullswarm.db');
    writeFileSync(dbPath, '');
    const store = open({ dbPath, onStartOver });
    expect(store.runs).toBeDefined();
    store.close();
    open({ dbPath, onStartOver });
    const again = openStoreIfExists({ dbPath, onStartOver });
    if (again) opened.push(again);
    expect(told).toEqual([
      `${dbPath} is empty (0 bytes): its history (runs, meter readings, the in-flight ledger) is gone; starting a new store in it`,
    ]);
  });

  it('creates a new database whole (temp file linked into place) and removes temp databases of dead creators', () => {
    const dir = tempDir();
    const dbPath = join(dir, 'bullswarm.db');
    const deadPid = 4_194_305; // above Linux's largest pid_max: never a live process
    const stale = [`.bullswarm.db.${deadPid}.abc.tmp`, `.bullswarm.db.${deadPid}.abc.tmp-wal`];
    for (const name of stale) writeFileSync(join(dir, name), 'left by a creator killed mid-way');
    const ours = `.bullswarm.db.${process.pid}.live.tmp`; // a live creator's: left alone
    writeFileSync(join(dir, ours), '');
    const store = open({ dbPath });
    expect(store.schemaVersion('store')).toBe(coreMigrations.migrations.length);
    expect(readdirSync(dir).filter((name) => name.includes('.tmp'))).toEqual([ours]);
    expect(statSync(dbPath).size).toBeGreaterThan(0);
  });

  it('closes idempotently', () => {
    const store = openStore({ dbPath: join(tempDir(), 'bullswarm.db') });
    store.close();
    store.close();
    expect(store.database.open).toBe(false);
  });
});

describe('migrations', () => {
  it("applies another namespace's migrations once, across opens and handles", () => {
    const dbPath = join(tempDir(), 'bullswarm.db');
    const first = open({ dbPath, migrations: [swarm([leases, seed])] });
    const second = open({ dbPath, migrations: [swarm([leases, seed])] });
    const count = () =>
      (second.database.prepare('SELECT COUNT(*) AS n FROM swarm_leases').get() as { n: number }).n;
    expect(count()).toBe(1);
    expect(first.schemaVersion('swarm')).toBe(2);
    // a later release appends a step: only the new step runs
    const third = open({
      dbPath,
      migrations: [swarm([leases, seed, "INSERT INTO swarm_leases (id, holder) VALUES ('v3', 'migration')"])],
    });
    expect(count()).toBe(2);
    expect(third.schemaVersion('swarm')).toBe(3);
    const tracked = third.database
      .prepare('SELECT namespace, version FROM schema_migrations ORDER BY namespace, version')
      .all();
    expect(tracked).toEqual([
      ...coreMigrations.migrations.map((_, index) => ({ namespace: 'store', version: index + 1 })),
      { namespace: 'swarm', version: 1 },
      { namespace: 'swarm', version: 2 },
      { namespace: 'swarm', version: 3 },
    ]);
    // user_version mirrors the store's own namespace only
    expect(third.database.pragma('user_version', { simple: true })).toBe(coreMigrations.migrations.length);
  });

  it('applies migrations registered after opening, and function steps', () => {
    const store = open({ dbPath: join(tempDir(), 'bullswarm.db') });
    const calls: number[] = [];
    const workflow: StoreMigrations = {
      namespace: 'workflow',
      migrations: [
        'CREATE TABLE workflow_runs (id TEXT PRIMARY KEY)',
        (db) => {
          calls.push(1);
          db.prepare("INSERT INTO workflow_runs (id) VALUES ('from-function')").run();
        },
      ],
    };
    store.applyMigrations(workflow);
    store.applyMigrations(workflow);
    expect(calls).toEqual([1]);
    expect(store.database.prepare('SELECT id FROM workflow_runs').all()).toEqual([{ id: 'from-function' }]);
  });

  it('rolls back every step of a failing batch and names namespace and version', () => {
    const dbPath = join(tempDir(), 'bullswarm.db');
    open({ dbPath });
    const error = catchError(() =>
      openStore({ dbPath, migrations: [swarm([leases, 'CREATE TABLE broken (', seed])] }),
    ) as StoreMigrationError;
    expect(StoreMigrationError.isInstance(error)).toBe(true);
    expect(error.namespace).toBe('swarm');
    expect(error.version).toBe(2);
    expect(error.message).toMatch(/migration swarm#2 .* failed \(rolled back\)/);
    const check = open({ dbPath });
    expect(check.schemaVersion('swarm')).toBe(0);
    expect(
      check.database.prepare("SELECT name FROM sqlite_master WHERE name = 'swarm_leases'").get(),
    ).toBeUndefined();
  });

  it('refuses malformed registrations', () => {
    const dbPath = join(tempDir(), 'bullswarm.db');
    const store = open({ dbPath });
    for (const attempt of [
      () => store.applyMigrations({ namespace: 'store', migrations: [] }),
      () => openStore({ dbPath, migrations: [{ namespace: 'store', migrations: [leases] }] }),
    ]) {
      const error = catchError(attempt) as StoreMigrationError;
      expect(error).toBeInstanceOf(StoreMigrationError);
      expect(error).toMatchObject({ namespace: 'store', version: undefined });
      expect(error.message).toMatch(/namespace "store" .*: this namespace is reserved for the store/);
    }
    expect(store.database.prepare('SELECT name FROM sqlite_master WHERE name = ?').get('swarm_leases')).toBe(
      undefined,
    );
    expect(
      (catchError(() => store.applyMigrations({ namespace: 'Bad Name', migrations: [] })) as Error).message,
    ).toMatch(/namespace must be lowercase/);
    expect(
      (catchError(() => openStore({ dbPath, migrations: [swarm([leases]), swarm([leases])] })) as Error)
        .message,
    ).toMatch(/registered twice/);
    expect((catchError(() => store.applyMigrations(swarm(['  ']))) as StoreMigrationError).version).toBe(1);
  });

  it('accepts a database migrated further by a newer bullswarm', () => {
    const dbPath = join(tempDir(), 'bullswarm.db');
    open({ dbPath, migrations: [swarm([leases, seed])] });
    const older = open({ dbPath, migrations: [swarm([leases])] });
    expect(older.schemaVersion('swarm')).toBe(2);
  });
});

describe('transactions and busy handling', () => {
  it('commits a transaction, rolls it back on error, and joins an outer one', () => {
    const store = open({ dbPath: join(tempDir(), 'bullswarm.db'), migrations: [swarm([leases])] });
    const insert = store.database.prepare('INSERT INTO swarm_leases (id, holder) VALUES (?, ?)');
    expect(store.transaction(() => insert.run('a', 'x').changes)).toBe(1);
    expect(() =>
      store.transaction(() => {
        insert.run('b', 'x');
        store.transaction(() => insert.run('c', 'x'));
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(store.database.prepare('SELECT id FROM swarm_leases').all()).toEqual([{ id: 'a' }]);
    expect(() => store.transaction(async () => undefined)).toThrow(
      'transaction: the transaction function must be synchronous, it returned a promise',
    );
    expect(store.database.inTransaction).toBe(false);
  });

  it('turns a lock held past the retry bound into StoreBusyError, never "database is locked"', () => {
    const dbPath = join(tempDir(), 'bullswarm.db');
    const store = open({ dbPath, busyTimeoutMs: 5, maxBusyAttempts: 3, busyBackoffMs: 1 });
    const blocker = new Database(dbPath);
    opened.push(blocker);
    blocker.exec('BEGIN IMMEDIATE');
    const error = catchError(() =>
      store.ledger.record({ poolId: 'codex', action: 'x', startedAt: 1, pid: process.pid }),
    ) as StoreBusyError;
    expect(StoreBusyError.isInstance(error)).toBe(true);
    expect(error.operation).toBe('ledger.record');
    expect(error.attempts).toBe(3);
    expect(error.message).not.toMatch(/database is locked/);
    expect((error.cause as { code: string }).code).toBe('SQLITE_BUSY');
    // reads still work under WAL while a writer holds the lock
    expect(store.ledger.list()).toEqual([]);
    blocker.exec('ROLLBACK');
    store.ledger.record({ poolId: 'codex', action: 'x', startedAt: 1, pid: process.pid });
    expect(store.ledger.list()).toHaveLength(1);
  });
});
