import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import type { Pool, PoolClient, PoolConfig } from 'pg';
import { StoreBusyError } from '../../errors/store-busy-error';
import { StoreUnavailableError } from '../../errors/store-unavailable-error';
import { postgresValues, toPostgresStatement } from '../placeholders';
import {
  type ExecOptions,
  POSTGRES_DIALECT,
  type SqlEngine,
  type SqlParams,
  type SqlRow,
  type SqlRunResult,
  type SqlSession,
  type TransactionOptions,
} from '../sql-session';
import { redactStoreUrl, scrubSecret, urlPassword } from '../store-url';
import { advisoryLockKey } from './advisory-lock';
import { NAMED_STATEMENT_LIMIT, NamedStatements } from './named-statements';
import { errorCode, errorDetail, isConflictError, isConnectionError, isLockTimeout } from './pg-errors';
import { DEFAULT_CONFLICT_ATTEMPTS, DEFAULT_RECONNECT_MS, ReconnectClock, sleep } from './reconnect-policy';
import { postgresTypes } from './type-parsers';

/** Options of {@link openPostgresEngine}. */
export interface PostgresEngineOptions {
  /** `postgres://…` or `postgresql://…` (libpq URL: `?host=/socket/dir`, `sslmode=…`, …). */
  readonly url: string;
  /** Connections in the pool (default 4: one bullswarm process rarely runs more at once). */
  readonly poolSize?: number;
  /** How long one connection attempt may take (default 5000 ms). */
  readonly connectTimeoutMs?: number;
  /** How long a lost connection is retried with back-off before `StoreUnavailableError` (default 30 000 ms). */
  readonly reconnectMs?: number;
  /** Runs of a transaction after serialization failures before `StoreBusyError` (default 12). */
  readonly conflictAttempts?: number;
  /** Server-side bound of one statement (default 60 000 ms). */
  readonly statementTimeoutMs?: number;
  /** Server-side bound of a lock wait, advisory locks included (default 30 000 ms). */
  readonly lockTimeoutMs?: number;
}

interface PostgresTransaction {
  open: boolean;
  /** A statement failed because it was named (see {@link NamedStatements.forget}): run the transaction again. */
  renamed: boolean;
  readonly session: SqlSession;
}

/**
 * Opens the Postgres engine: loads `pg` (only now: a SQLite home never loads it), creates the pool
 * and proves one connection, so an unreachable server is a `StoreUnavailableError` (`unreachable`,
 * exit 1) naming the URL without its password — never a fall-back to the local file.
 *
 * Commits keep the server's durability (`synchronous_commit` as the server sets it, on by
 * default): with it off, a crash of the server loses the last fraction of a second of commits — an
 * in-flight entry recorded just before — which the store's outage promise rules out (a URL may
 * still say `?options=-c%20synchronous_commit%3Doff` for a faster, less durable ledger). Statements are bounded by
 * `statement_timeout`, lock waits by `lock_timeout`, an idle open transaction (a process that hung
 * mid-transaction) by `idle_in_transaction_session_timeout`. Statements with parameters are sent
 * as named prepared statements (see {@link NamedStatements}).
 */
export async function openPostgresEngine(options: PostgresEngineOptions): Promise<SqlEngine> {
  const location = redactStoreUrl(options.url);
  const pg = loadPg(location);
  const config: PoolConfig = {
    connectionString: options.url,
    max: options.poolSize ?? 4,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true,
    keepAlive: true,
    application_name: 'bullswarm',
    statement_timeout: options.statementTimeoutMs ?? 60_000,
    lock_timeout: options.lockTimeoutMs ?? 30_000,
    idle_in_transaction_session_timeout: 60_000,
    types: postgresTypes(pg.types),
  };
  const pool = new pg.Pool(config);
  // An idle connection the server closed (a restart) is dropped by the pool; without a listener
  // the 'error' event would end the process.
  pool.on('error', () => {});
  const engine = new PostgresEngine(pool, options, location);
  await engine.prove();
  return engine;
}

/**
 * Loads `pg` with a `require` from this module's own location, only when a Postgres store is
 * opened. A computed `require` is never followed by a bundler, so the CLI's bundles never carry
 * pg (their start time stays what it was): the CLI resolves it as an installed dependency, as it
 * does better-sqlite3's addon.
 */
function loadPg(location: string): typeof import('pg') {
  try {
    return createRequire(import.meta.url)('pg') as typeof import('pg');
  } catch (error) {
    throw new StoreUnavailableError({
      location,
      operation: 'open',
      reason: 'unreachable',
      code: (error as { code?: string }).code ?? 'MODULE_NOT_FOUND',
      detail: 'the Postgres driver (the pg package) is not installed beside bullswarm',
    });
  }
}

const guardedClients = new WeakSet<PoolClient>();

/** Thrown inside {@link PostgresEngine.transaction} to roll back and run again after a renamed statement. */
const RENAMED = new Error('a statement was refused for its name: the transaction runs again');

class PostgresEngine implements SqlEngine {
  readonly dialect = POSTGRES_DIALECT;
  private readonly context = new AsyncLocalStorage<PostgresTransaction>();
  private readonly password: string;
  private readonly reconnectMs: number;
  private readonly named = new NamedStatements();
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly options: PostgresEngineOptions,
    readonly location: string,
  ) {
    this.password = urlPassword(options.url);
    this.reconnectMs = options.reconnectMs ?? DEFAULT_RECONNECT_MS;
  }

  /** One round trip at open: unreachable → `StoreUnavailableError` at once, no reconnecting. */
  async prove(): Promise<void> {
    try {
      const client = this.guarded(await this.pool.connect());
      try {
        await client.query('SELECT 1');
      } finally {
        client.release();
      }
    } catch (error) {
      await this.pool.end().catch(() => {});
      throw this.unavailable('open', 'unreachable', error, 0);
    }
  }

  query<R extends object = SqlRow>(sql: string, params?: SqlParams): Promise<R[]> {
    const joined = this.joined();
    if (joined !== undefined) return joined.query<R>(sql, params);
    return this.outside(sql, params, true).then((result) => result.rows as R[]);
  }

  async get<R extends object = SqlRow>(sql: string, params?: SqlParams): Promise<R | undefined> {
    const rows = await this.query<R>(sql, params);
    return rows[0];
  }

  exec(sql: string, params?: SqlParams, options: ExecOptions = {}): Promise<SqlRunResult> {
    const joined = this.joined();
    if (joined !== undefined) return joined.exec(sql, params);
    return this.outside(sql, params, options.idempotent === true).then((result) => ({
      changes: result.rowCount ?? 0,
    }));
  }

  async transaction<T>(fn: (tx: SqlSession) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const joined = this.joined();
    if (joined !== undefined) return fn(joined);
    const operation = options.operation ?? 'transaction';
    const locks =
      options.lock === undefined ? [] : typeof options.lock === 'string' ? [options.lock] : options.lock;
    const maxConflicts = this.options.conflictAttempts ?? DEFAULT_CONFLICT_ATTEMPTS;
    let conflicts = 0;
    let renames = 0;
    let lost: ReconnectClock | undefined;
    for (;;) {
      const client = await this.connect(operation, lost);
      const state: PostgresTransaction = {
        open: true,
        renamed: false,
        session: this.transactionSession(client, () => {
          state.renamed = true;
        }),
      };
      let committing = false;
      let locked = false;
      try {
        // The advisory locks are taken before BEGIN, as session locks released below: a
        // SERIALIZABLE transaction's snapshot is taken at its first statement, so a lock taken
        // inside it would be waited for with a snapshot from before the previous holder's commit.
        for (const name of locks) {
          const [space, key] = advisoryLockKey(name);
          await client.query('SELECT pg_advisory_lock($1, $2)', [space, key]);
          locked = true;
        }
        await client.query(
          options.readOnly
            ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'
            : 'BEGIN ISOLATION LEVEL SERIALIZABLE',
        );
        const result = await this.context.run(state, () => fn(state.session));
        state.open = false;
        if (state.renamed) throw RENAMED;
        committing = true;
        await client.query('COMMIT');
        // Committed: from here nothing may throw (a retry would run `fn` twice).
        await this.giveBack(client, locked);
        return result;
      } catch (error) {
        state.open = false;
        if (isConnectionError(error)) {
          // The server ended the session, and its locks with it.
          client.release(error as Error);
          if (committing) throw this.unavailable(operation, 'outcome-unknown', error, 0);
          lost ??= new ReconnectClock(this.reconnectMs);
          await this.pause(operation, lost, error);
          continue;
        }
        await client.query('ROLLBACK').catch(() => {});
        await this.giveBack(client, locked);
        // A statement refused for its name (now sent unnamed), even if `fn` caught the error: nothing
        // was committed, so the transaction simply runs again (bounded: each text is renamed once).
        if (state.renamed && renames++ < NAMED_STATEMENT_LIMIT) continue;
        if (isConflictError(error)) {
          conflicts++;
          if (conflicts < maxConflicts) {
            await sleep(Math.min(5 * 2 ** conflicts, 200) * Math.random());
            continue;
          }
          throw new StoreBusyError({
            dbPath: this.location,
            operation,
            attempts: conflicts,
            waitedMs: 0,
            cause: error,
          });
        }
        if (isLockTimeout(error)) {
          throw new StoreBusyError({
            dbPath: this.location,
            operation,
            attempts: 1,
            waitedMs: 0,
            cause: error,
          });
        }
        throw error;
      }
    }
  }

  async execScript(sql: string, session?: SqlSession): Promise<void> {
    if (session !== undefined && session === this.joined()) {
      await (session as SqlSession & { script(sql: string): Promise<void> }).script(sql);
      return;
    }
    await this.outside(sql, undefined, false, true);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  /**
   * A pool connection with an 'error' listener: a connection that dies while checked out emits
   * 'error' besides failing its query, and without a listener that would end the process. The
   * failure itself reaches the caller through the query.
   */
  private guarded(client: PoolClient): PoolClient {
    if (!guardedClients.has(client)) {
      guardedClients.add(client);
      client.on('error', () => {});
    }
    return client;
  }

  /**
   * Returns a connection to the pool after a transaction, its advisory locks released first; a
   * connection whose locks could not be given back is closed instead (which releases them). Never throws.
   */
  private async giveBack(client: PoolClient, locked: boolean): Promise<void> {
    const unlocked =
      !locked ||
      (await client.query('SELECT pg_advisory_unlock_all()').then(
        () => true,
        () => false,
      ));
    client.release(unlocked ? undefined : new Error('advisory locks not released'));
  }

  private joined(): SqlSession | undefined {
    const state = this.context.getStore();
    return state?.open ? state.session : undefined;
  }

  /** A pool connection; a refused connect is retried within the reconnect bound (nothing was sent). */
  private async connect(operation: string, lost: ReconnectClock | undefined): Promise<PoolClient> {
    let clock = lost;
    for (;;) {
      try {
        return this.guarded(await this.pool.connect());
      } catch (error) {
        if (!isConnectionError(error)) throw this.unavailable(operation, 'unreachable', error, 0);
        clock ??= new ReconnectClock(this.reconnectMs);
        await this.pause(operation, clock, error);
      }
    }
  }

  /** Waits the next back-off step, or throws `lost` once the bound has passed. */
  private async pause(operation: string, clock: ReconnectClock, error: unknown): Promise<void> {
    const delay = clock.nextDelay();
    if (delay === undefined) throw this.unavailable(operation, 'lost', error, clock.waitedMs);
    await sleep(delay);
  }

  /** One statement outside a transaction, re-sent after a lost connection when that is safe. */
  private async outside(sql: string, params: SqlParams | undefined, resend: boolean, script = false) {
    const statement = script ? undefined : toPostgresStatement(sql);
    const values = statement === undefined ? undefined : postgresValues(statement, sql, params);
    const operation = `sql: ${sql.trim().slice(0, 40)}`;
    let lost: ReconnectClock | undefined;
    for (;;) {
      const client = await this.connect(operation, lost);
      const query =
        statement === undefined ? undefined : this.named.query(statement.text, values as unknown[]);
      try {
        const result = query === undefined ? await client.query(sql) : await client.query(query);
        client.release();
        return Array.isArray(result) ? result[result.length - 1]! : result;
      } catch (error) {
        if (!isConnectionError(error)) {
          client.release();
          // Refused for its name, before it ran: send it again unnamed.
          if (query !== undefined && this.named.forget(error, query)) continue;
          throw error;
        }
        client.release(error as Error);
        if (!resend) throw this.unavailable(operation, 'outcome-unknown', error, 0);
        lost ??= new ReconnectClock(this.reconnectMs);
        await this.pause(operation, lost, error);
      }
    }
  }

  private transactionSession(
    client: PoolClient,
    onRenamed: () => void,
  ): SqlSession & { script(sql: string): Promise<void> } {
    const run = async (sql: string, params?: SqlParams) => {
      const statement = toPostgresStatement(sql);
      const query = this.named.query(statement.text, postgresValues(statement, sql, params));
      try {
        return await client.query(query);
      } catch (error) {
        if (this.named.forget(error, query)) onRenamed();
        throw error;
      }
    };
    const session: SqlSession & { script(sql: string): Promise<void> } = {
      dialect: POSTGRES_DIALECT,
      query: async <R extends object>(sql: string, params?: SqlParams) =>
        (await run(sql, params)).rows as R[],
      get: async <R extends object>(sql: string, params?: SqlParams) =>
        (await run(sql, params)).rows[0] as R | undefined,
      exec: async (sql: string, params?: SqlParams) => ({ changes: (await run(sql, params)).rowCount ?? 0 }),
      transaction: <T>(fn: (tx: SqlSession) => Promise<T>) => fn(session),
      script: async (sql: string) => {
        await client.query(sql);
      },
    };
    return session;
  }

  private unavailable(
    operation: string,
    reason: 'unreachable' | 'lost' | 'outcome-unknown',
    error: unknown,
    waitedMs: number,
  ): StoreUnavailableError {
    const code = errorCode(error);
    return new StoreUnavailableError({
      location: this.location,
      operation,
      reason,
      ...(code === undefined ? {} : { code }),
      detail: scrubSecret(errorDetail(error), this.password),
      waitedMs,
    });
  }
}
