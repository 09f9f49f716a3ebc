import { existsSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { DEFAULT_ORPHAN_GRACE_MS } from '@bullswarm/connectors/internal';
import Database from 'better-sqlite3';
import { StoreFaultError } from '../errors/store-fault-error';
import { StoreInputError } from '../errors/store-input-error';
import { StoreMigrationError } from '../errors/store-migration-error';
import { StoreOpenError } from '../errors/store-open-error';
import { createHomeDir } from '../home/create-home-dir';
import type { BullswarmStore } from '../store-types';
import { BusyRunner } from './busy-retry';
import { coreMigrations, STORE_NAMESPACE } from './core-migrations';
import { createDatabaseFile } from './create-database';
import { SqliteInflightLedger } from './inflight-ledger';
import { SqliteMeterLog } from './meter-log';
import { appliedVersions, applyMigrations, type StoreMigrations } from './migrations';
import { canWriteStore, openReadOnly } from './open-read-only';
import { SqliteProbeCache } from './probe-cache';
import { SqliteRunLog } from './run-log';

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** The database file (a home's `dbPath`); its directory is created (0700) when missing. */
  readonly dbPath: string;
  /** Other packages' tables, applied once each after the store's own (see {@link StoreMigrations}). */
  readonly migrations?: readonly StoreMigrations[];
  /** How long SQLite itself waits for a lock before reporting busy (default 5000 ms). */
  readonly busyTimeoutMs?: number;
  /** Attempts per operation before {@link StoreBusyError} (default 6, so ≈30 s at the default timeout). */
  readonly maxBusyAttempts?: number;
  /** First back-off ceiling between attempts, doubling per attempt up to 1 s (default 25 ms). */
  readonly busyBackoffMs?: number;
  /** This machine's name in ledger entries (default `os.hostname()`). */
  readonly host?: string;
  /**
   * Grace between SIGTERM and SIGKILL when a reap ends an orphaned worker group (default
   * 3000 ms). The SIGKILL follow-up is a timer: the reaping call never waits for it.
   */
  readonly orphanGraceMs?: number;
  /**
   * Told once when the database file exists but is empty (0 bytes: its history is gone, e.g. a
   * truncated copy) and a new store is started in it. Default: one `warning:` line on stderr.
   * A database bullswarm creates is never empty on disk (it is made whole in a temp file and
   * linked into place, see `createDatabaseFile`), so another process creating the store is never
   * mistaken for a lost one.
   */
  readonly onStartOver?: (message: string) => void;
}

/** The one line said when an empty database file is started over (see `onStartOver`). */
export function startOverMessage(dbPath: string): string {
  return `${dbPath} is empty (0 bytes): its history (runs, meter readings, the in-flight ledger) is gone; starting a new store in it`;
}

/** Whether `dbPath` exists as an empty file. */
function isEmptyFile(dbPath: string): boolean {
  try {
    const stat = statSync(dbPath);
    return stat.isFile() && stat.size === 0;
  } catch {
    return false;
  }
}

/**
 * The embedded store: {@link BullswarmStore} plus what bullswarm's own packages need to add
 * tables of their own. `database`, `transaction` and `applyMigrations` are for bullswarm packages
 * (swarm leases, workflow tables), not a stable public surface.
 */
export interface EmbeddedBullswarmStore extends BullswarmStore {
  readonly dbPath: string;
  /**
   * Opened where it cannot be written (a read-only home): reads work, caches are not kept, and a
   * write throws `StoreFaultError` (`SQLITE_READONLY`).
   */
  readonly readOnly: boolean;
  /** The raw better-sqlite3 handle, for bullswarm packages' own tables. Write through {@link transaction}. */
  readonly database: Database.Database;
  /**
   * Run `fn` in a write transaction (`BEGIN IMMEDIATE`), retried on busy like every store write,
   * and return its result. `fn` must be synchronous and touch only the database (it may be re-run
   * after a busy rollback). Inside another transaction it joins the outer one.
   */
  transaction<T>(fn: () => T): T;
  /** Register more migrations after opening; pending steps are applied now, once. */
  applyMigrations(migrations: StoreMigrations): void;
  /** The applied version of a namespace (0 when none). */
  schemaVersion(namespace: string): number;
}

/**
 * Open (creating when missing) the SQLite store at `dbPath`.
 *
 * The connection runs WAL journaling, `synchronous=NORMAL`, foreign keys on, and a busy timeout;
 * every write is a `BEGIN IMMEDIATE` transaction retried with jittered back-off on `SQLITE_BUSY`,
 * so "database is locked" never reaches the caller (past the bound: {@link StoreBusyError}). The
 * store's schema and any registered migrations are applied once, whichever process gets there first.
 *
 * @example
 * ```ts
 * const store = openStore({ dbPath: openHome().dbPath });
 * const entry = store.ledger.record({ poolId: 'codex', action: 'run-1', startedAt: now(), pid: process.pid });
 * try { … } finally { store.ledger.release(entry.id); store.close(); }
 * ```
 */
export function openStore(options: OpenStoreOptions): EmbeddedBullswarmStore {
  const dbPath = resolve(options.dbPath);
  createHomeDir(dirname(dbPath));
  return open(dbPath, options, false);
}

/**
 * Like {@link openStore}, but for read-only commands: when the database file does not exist yet,
 * returns undefined and creates nothing.
 *
 * Both open an existing store that cannot be written (a read-only home or file system, see
 * `canWriteStore`) read-only (`readOnly: true`): reads work, caches and reaping are skipped, and a
 * write throws a `StoreFaultError` (`SQLITE_READONLY`, exit 2) naming the database.
 */
export function openStoreIfExists(options: OpenStoreOptions): EmbeddedBullswarmStore | undefined {
  const dbPath = resolve(options.dbPath);
  if (!existsSync(dbPath)) return undefined;
  return open(dbPath, options, true);
}

function open(dbPath: string, options: OpenStoreOptions, fileMustExist: boolean): EmbeddedBullswarmStore {
  for (const set of options.migrations ?? []) refuseReservedNamespace(dbPath, set);
  const timeout = options.busyTimeoutMs ?? 5000;
  const migrations = [coreMigrations, ...(options.migrations ?? [])];
  const policy = { maxAttempts: options.maxBusyAttempts ?? 6, baseDelayMs: options.busyBackoffMs ?? 25 };
  if (existsSync(dbPath) && !canWriteStore(dbPath))
    return openStoreReadOnly(dbPath, options, migrations, timeout, policy);
  if (!fileMustExist) {
    try {
      createDatabaseFile(
        dbPath,
        (fresh) => {
          fresh.pragma('journal_mode = WAL');
          applyMigrations(fresh, new BusyRunner(fresh, dbPath, policy), dbPath, migrations, STORE_NAMESPACE);
        },
        timeout,
      );
    } catch (error) {
      if (StoreMigrationError.isInstance(error)) throw error;
      throw new StoreOpenError({ dbPath, code: (error as { code?: string }).code, cause: error });
    }
  }
  if (isEmptyFile(dbPath)) {
    const tell = options.onStartOver ?? ((message) => process.stderr.write(`warning: ${message}\n`));
    tell(startOverMessage(dbPath));
  }
  let db: Database.Database;
  try {
    db = new Database(dbPath, { timeout, fileMustExist });
  } catch (error) {
    throw new StoreOpenError({ dbPath, code: (error as { code?: string }).code, cause: error });
  }
  const runner = new BusyRunner(db, dbPath, policy);
  try {
    runner.read('open', () => {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
    });
    applyMigrations(db, runner, dbPath, migrations, STORE_NAMESPACE);
  } catch (error) {
    db.close();
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
      throw new StoreOpenError({ dbPath, code, cause: error });
    throw error;
  }
  return storeOver(db, runner, dbPath, options, () => {});
}

/** The store over an open database (read-write, or read-only with `dispose` removing its snapshot). */
function storeOver(
  db: Database.Database,
  runner: BusyRunner,
  dbPath: string,
  options: OpenStoreOptions,
  dispose: () => void,
): EmbeddedBullswarmStore {
  const host = options.host ?? hostname();
  const orphanGraceMs = options.orphanGraceMs ?? DEFAULT_ORPHAN_GRACE_MS;
  if (!Number.isFinite(orphanGraceMs) || orphanGraceMs < 0) {
    db.close();
    dispose();
    throw new StoreInputError({
      operation: 'openStore',
      field: 'orphanGraceMs',
      expected: 'a finite number of milliseconds ≥ 0',
      value: orphanGraceMs,
    });
  }
  let closed = false;
  return {
    dbPath,
    readOnly: runner.readOnly,
    database: db,
    ledger: new SqliteInflightLedger(db, runner, host, orphanGraceMs),
    runs: new SqliteRunLog(db, runner),
    meters: new SqliteMeterLog(db, runner),
    probes: new SqliteProbeCache(db, runner),
    transaction: <T>(fn: () => T): T => runner.write('transaction', fn),
    applyMigrations(migrations: StoreMigrations): void {
      refuseReservedNamespace(dbPath, migrations);
      if (runner.readOnly) refuseOlderSchema(db, dbPath, [migrations]);
      else applyMigrations(db, runner, dbPath, [migrations], STORE_NAMESPACE);
    },
    schemaVersion: (namespace: string): number =>
      runner.read('schemaVersion', () => appliedVersions(db).get(namespace) ?? 0),
    close(): void {
      if (closed) return;
      closed = true;
      db.close();
      dispose();
    },
  };
}

/** Opens an existing store that cannot be written, for reading (see `openReadOnly`). */
function openStoreReadOnly(
  dbPath: string,
  options: OpenStoreOptions,
  migrations: readonly StoreMigrations[],
  timeout: number,
  policy: { maxAttempts: number; baseDelayMs: number },
): EmbeddedBullswarmStore {
  let opened: ReturnType<typeof openReadOnly>;
  try {
    opened = openReadOnly(dbPath, timeout);
  } catch (error) {
    throw new StoreOpenError({ dbPath, code: (error as { code?: string }).code, cause: error });
  }
  const { db, dispose } = opened;
  try {
    refuseOlderSchema(db, dbPath, migrations);
    return storeOver(db, new BusyRunner(db, dbPath, policy, true), dbPath, options, dispose);
  } catch (error) {
    db.close();
    dispose();
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
      throw new StoreOpenError({ dbPath, code, cause: error });
    throw error;
  }
}

/** A read-only store cannot be migrated: one written by an older bullswarm is refused, naming it. */
function refuseOlderSchema(db: Database.Database, dbPath: string, sets: readonly StoreMigrations[]): void {
  const versions = appliedVersions(db);
  for (const set of sets) {
    const have = versions.get(set.namespace) ?? 0;
    if (have < set.migrations.length) {
      throw new StoreFaultError({
        dbPath,
        code: 'SQLITE_READONLY',
        operation: `migrations of ${set.namespace} (the store has version ${have}, this bullswarm needs ${set.migrations.length})`,
      });
    }
  }
}

/** Other packages' migrations may not use the store's own namespace. */
function refuseReservedNamespace(dbPath: string, migrations: StoreMigrations): void {
  if (migrations.namespace === STORE_NAMESPACE) {
    throw new StoreMigrationError({
      dbPath,
      namespace: STORE_NAMESPACE,
      problem: 'this namespace is reserved for the store',
    });
  }
}
