import { hostname } from 'node:os';
import { DEFAULT_ORPHAN_GRACE_MS } from '@bullswarm/connectors/internal';
import {
  type AppliedMigration,
  applyPostgresMigrations,
  namespaceStatuses,
  readAppliedVersions,
} from '../engine/migration-status';
import type { PostgresEngineOptions } from '../engine/postgres/postgres-engine';
import { reconnectMsFromEnv } from '../engine/postgres/reconnect-policy';
import type { SqlEngine, SqlSession, TransactionOptions } from '../engine/sql-session';
import { SqliteEngine } from '../engine/sqlite-engine';
import type { StoreTarget } from '../engine/store-target';
import { StoreInputError } from '../errors/store-input-error';
import { StoreMigrationError } from '../errors/store-migration-error';
import { type HeartbeatSettings, resolveHeartbeatSettings } from '../hosts/heartbeat-settings';
import { HOST_ID_PATTERN } from '../hosts/host-id';
import type { LivenessRules } from '../hosts/liveness';
import { StoreHeartbeat } from '../hosts/store-heartbeat';
import { BusyRunner } from '../sqlite/busy-retry';
import { coreMigrations, STORE_NAMESPACE } from '../sqlite/core-migrations';
import type { StoreMigrations } from '../sqlite/migrations';
import {
  type EmbeddedBullswarmStore,
  type OpenStoreOptions,
  openStore,
  openStoreIfExists,
} from '../sqlite/open-store';
import type { AsyncBullswarmStore, AsyncStoreBooks, AsyncStoreTransaction } from './async-store-types';
import { type BookContext, startTimeReader } from './book-context';
import { ClaimRegistry } from './claim-book';
import { LedgerBook } from './ledger-book';
import { MeterBook } from './meter-book';
import { ProbeBook } from './probe-book';
import { RunBook } from './run-book';

/** Options of {@link openAsyncStore}. */
export interface OpenAsyncStoreOptions {
  /** Which engine, and where (see `resolveStoreTarget`). */
  readonly target: StoreTarget;
  /** This machine's id in the store (see `resolveHostId`; default the hostname). */
  readonly hostId?: string;
  /** Other packages' tables, applied once each after the store's own. */
  readonly migrations?: readonly StoreMigrations[];
  /**
   * `auto` (default): pending steps are applied on open. `never`: nothing is applied (what
   * `bullswarm store status` opens with; Postgres only — SQLite brings the store's own namespace
   * up to date on every open, as it always did).
   */
  readonly migrate?: 'auto' | 'never';
  /** The heartbeat's interval and TTL (default: the environment, else 30 s / 120 s). */
  readonly heartbeat?: Partial<HeartbeatSettings>;
  /** Environment for the heartbeat settings (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Epoch ms of heartbeats and TTL judgements (default `Date.now`). */
  readonly clock?: () => number;
  /** SIGTERM → SIGKILL grace for an orphaned worker group of this host (default 3000 ms). */
  readonly orphanGraceMs?: number;
  /** Postgres pool and retry bounds. */
  readonly postgres?: Omit<PostgresEngineOptions, 'url'>;
  /** SQLite busy handling and the empty-file warning (see `openStore`). */
  readonly sqlite?: Pick<
    OpenStoreOptions,
    'busyTimeoutMs' | 'maxBusyAttempts' | 'busyBackoffMs' | 'onStartOver'
  >;
}

/**
 * Opens the asynchronous store on the engine `target` names: SQLite through the same opening as
 * the synchronous `openStore` (file creation, WAL, the empty-file warning, `BEGIN IMMEDIATE`
 * migrations), or Postgres (`pg`, loaded only now) with its migrations applied under an advisory
 * lock. A Postgres server that cannot be reached is a `StoreUnavailableError` (exit 1).
 */
export async function openAsyncStore(options: OpenAsyncStoreOptions): Promise<AsyncBullswarmStore> {
  return (await open(options, false)) as AsyncBullswarmStore;
}

/**
 * Like {@link openAsyncStore}, for read-only commands: undefined when there is no store yet (no
 * SQLite file; a Postgres database the store's tables were never created in), and nothing is created.
 */
export async function openAsyncStoreIfExists(
  options: OpenAsyncStoreOptions,
): Promise<AsyncBullswarmStore | undefined> {
  return open({ ...options, migrate: 'never' }, true);
}

async function open(
  options: OpenAsyncStoreOptions,
  mustExist: boolean,
): Promise<AsyncBullswarmStore | undefined> {
  const hostId = options.hostId ?? hostname();
  if (!HOST_ID_PATTERN.test(hostId)) {
    throw new StoreInputError({
      operation: 'openStore',
      field: 'hostId',
      expected: 'a host id (see resolveHostId)',
      value: hostId,
    });
  }
  const settings = resolveHeartbeatSettings(options.env ?? process.env, options.heartbeat);
  const orphanGraceMs = options.orphanGraceMs ?? DEFAULT_ORPHAN_GRACE_MS;
  const registered: StoreMigrations[] = [];
  for (const set of options.migrations ?? []) {
    refuseReserved(options.target, set);
    registered.push(set);
  }
  let engine: SqlEngine;
  let embedded: EmbeddedBullswarmStore | undefined;
  if (options.target.engine === 'sqlite') {
    const sqliteOptions = {
      ...options.sqlite,
      dbPath: options.target.dbPath,
      host: hostId,
      orphanGraceMs,
      migrations: registered,
    };
    embedded = mustExist ? openStoreIfExists(sqliteOptions) : openStore(sqliteOptions);
    if (embedded === undefined) return undefined;
    const runner = new BusyRunner(embedded.database, embedded.dbPath, {
      maxAttempts: options.sqlite?.maxBusyAttempts ?? 6,
      baseDelayMs: options.sqlite?.busyBackoffMs ?? 25,
    });
    const store = embedded;
    engine = new SqliteEngine(store.database, runner, store.dbPath, () => store.close());
  } else {
    const { openPostgresEngine } = await import('../engine/postgres/postgres-engine');
    engine = await openPostgresEngine({
      reconnectMs: reconnectMsFromEnv(options.env ?? process.env),
      ...options.postgres,
      url: options.target.url,
    });
    try {
      if (mustExist && !(await readAppliedVersions(engine)).has(STORE_NAMESPACE)) {
        await engine.close();
        return undefined;
      }
      if (options.migrate !== 'never') await applyPostgresMigrations(engine, [coreMigrations, ...registered]);
    } catch (error) {
      await engine.close();
      throw error;
    }
  }
  const rules: LivenessRules = { hostId, ttlMs: settings.ttlMs, now: options.clock ?? Date.now };
  const readOnly = embedded?.readOnly === true;
  const context: BookContext = {
    rules,
    readOnly,
    orphanGraceMs,
    startTimeOf: startTimeReader(),
    heartbeat: new StoreHeartbeat(settings, async () => {
      await books.ledger.renew();
      await books.claims.renew();
    }),
  };
  const bind = (session: SqlSession): AsyncStoreBooks => ({
    ledger: new LedgerBook(session, context),
    runs: new RunBook(session),
    meters: new MeterBook(session, readOnly),
    probes: new ProbeBook(session, readOnly),
    claims: new ClaimRegistry(session, context),
  });
  const books = bind(engine);
  const sqliteEngine = engine instanceof SqliteEngine ? engine : undefined;

  /** Postgres: the steps this call applied (under the migration lock); SQLite: undefined. */
  const applyRegistered = async (
    sets: readonly StoreMigrations[],
  ): Promise<AppliedMigration[] | undefined> => {
    if (sqliteEngine !== undefined && embedded !== undefined) {
      const store = embedded;
      for (const set of sets) await sqliteEngine.exclusive(() => store.applyMigrations(set));
      return undefined;
    }
    return applyPostgresMigrations(engine, [coreMigrations, ...sets]);
  };
  let closed = false;
  return {
    ...books,
    engine: options.target.engine,
    location: engine.location,
    hostId,
    readOnly,
    sql: engine,
    heartbeat: {
      settings,
      add: (renewer) => context.heartbeat.add(renewer),
      renewNow: () => context.heartbeat.renewNow(),
      get lastError() {
        return context.heartbeat.lastError;
      },
    },
    transaction: <T>(
      fn: (tx: AsyncStoreTransaction) => Promise<T>,
      transactionOptions?: TransactionOptions,
    ) => engine.transaction((session) => fn({ ...bind(session), sql: session }), transactionOptions),
    async ensureMigrations(set) {
      refuseReserved(options.target, set);
      const index = registered.findIndex((known) => known.namespace === set.namespace);
      if (index === -1) registered.push(set);
      else registered[index] = set;
      await applyRegistered([set]);
    },
    async migrationStatus() {
      const applied = await readAppliedVersions(engine);
      const namespaces = namespaceStatuses(applied, [coreMigrations, ...registered]);
      return {
        engine: options.target.engine,
        location: engine.location,
        hostId,
        namespaces,
        pending: namespaces.reduce((sum, status) => sum + status.pending, 0),
      };
    },
    async migrate(): Promise<AppliedMigration[]> {
      const before = await readAppliedVersions(engine);
      // On Postgres exactly the steps this process applied: another host migrating at the same
      // time applied the rest, and they are not listed. (SQLite: what changed around the call.)
      const own = await applyRegistered(registered);
      if (own !== undefined) return own;
      const after = await readAppliedVersions(engine);
      const applied: AppliedMigration[] = [];
      for (const [namespace, version] of after) {
        for (let v = (before.get(namespace) ?? 0) + 1; v <= version; v++)
          applied.push({ namespace, version: v });
      }
      return applied;
    },
    async changeVersion() {
      if (options.target.engine === 'sqlite') {
        const row = await engine.get<{ data_version: number }>('PRAGMA data_version');
        return `sqlite:${row?.data_version ?? 0}`;
      }
      const row = await engine.get<{ v: string }>(
        'SELECT txid_snapshot_xmax(txid_current_snapshot())::text AS v',
      );
      return `postgres:${row?.v ?? 0}`;
    },
    async close() {
      if (closed) return;
      closed = true;
      await context.heartbeat.stop();
      await engine.close();
    },
  };
}

/** Other packages' migrations may not use the store's own namespace. */
function refuseReserved(target: StoreTarget, set: StoreMigrations): void {
  if (set.namespace === STORE_NAMESPACE) {
    throw new StoreMigrationError({
      dbPath: target.engine === 'sqlite' ? target.dbPath : 'the Postgres store',
      namespace: STORE_NAMESPACE,
      problem: 'this namespace is reserved for the store',
    });
  }
}
