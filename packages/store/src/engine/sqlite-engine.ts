import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import type { BusyRunner } from '../sqlite/busy-retry';
import { ConnectionGate } from './connection-gate';
import { sqliteValues } from './placeholders';
import {
  SQLITE_DIALECT,
  type SqlEngine,
  type SqlParams,
  type SqlRow,
  type SqlRunResult,
  type SqlSession,
  type TransactionOptions,
} from './sql-session';

const STATEMENT_CACHE_LIMIT = 500;

/** The open transaction of a SQLite engine, as its async context sees it. */
interface SqliteTransaction {
  open: boolean;
  readonly session: SqlSession;
}

/**
 * The SQL layer on the embedded SQLite database (better-sqlite3, synchronous underneath).
 *
 * - A statement outside a transaction runs at once when the connection is free (no queue, one
 *   resolved promise), retried on `SQLITE_BUSY` like every store operation (see `BusyRunner`).
 * - A transaction is `BEGIN IMMEDIATE` (the database's write lock, taken up front and retried on
 *   busy, exactly as the synchronous store's writes), held across `fn`'s awaits; the connection
 *   is gated meanwhile, so statements of other callers in this process wait for the commit
 *   instead of slipping into the transaction. `fn` runs once: nothing is re-run on SQLite.
 * - Calls on the engine from inside `fn`'s async context join the transaction.
 */
export class SqliteEngine implements SqlEngine {
  readonly dialect = SQLITE_DIALECT;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly gate = new ConnectionGate();
  private readonly context = new AsyncLocalStorage<SqliteTransaction>();
  private closed = false;

  /**
   * @param db the open database (WAL, migrations applied: see `openStore`)
   * @param runner the busy retry of that database
   * @param closeDatabase closes what `db` came from
   */
  constructor(
    private readonly db: Database.Database,
    private readonly runner: BusyRunner,
    readonly location: string,
    private readonly closeDatabase: () => void,
  ) {}

  query<R extends object = SqlRow>(sql: string, params?: SqlParams): Promise<R[]> {
    const joined = this.joined();
    if (joined !== undefined) return joined.query<R>(sql, params);
    return this.outside(() => this.all(sql, params) as R[]);
  }

  get<R extends object = SqlRow>(sql: string, params?: SqlParams): Promise<R | undefined> {
    const joined = this.joined();
    if (joined !== undefined) return joined.get<R>(sql, params);
    return this.outside(() => this.first(sql, params) as R | undefined);
  }

  exec(sql: string, params?: SqlParams): Promise<SqlRunResult> {
    const joined = this.joined();
    if (joined !== undefined) return joined.exec(sql, params);
    return this.outside(() => this.run(sql, params));
  }

  async transaction<T>(fn: (tx: SqlSession) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const joined = this.joined();
    if (joined !== undefined) return fn(joined);
    await this.gate.enter();
    try {
      const operation = options.operation ?? 'transaction';
      this.runner.read(operation, () => this.db.exec(options.readOnly ? 'BEGIN' : 'BEGIN IMMEDIATE'));
      const state: SqliteTransaction = { open: true, session: this.transactionSession() };
      try {
        const result = await this.context.run(state, () => fn(state.session));
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      } finally {
        state.open = false;
      }
    } finally {
      this.gate.leave();
    }
  }

  async execScript(sql: string, session?: SqlSession): Promise<void> {
    const inside = session !== undefined && session === this.joined();
    if (inside) {
      this.db.exec(sql);
      return;
    }
    await this.outside(() => this.db.exec(sql));
  }

  /**
   * Run synchronous work on the database alone (no transaction of this engine is open meanwhile):
   * the synchronous store's own migration runner, for instance.
   */
  async exclusive<T>(fn: () => T): Promise<T> {
    await this.gate.enter();
    try {
      return fn();
    } finally {
      this.gate.leave();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.gate.enter();
    try {
      this.statements.clear();
      this.closeDatabase();
    } finally {
      this.gate.leave();
    }
  }

  /** The session of the transaction open in this async context, if any. */
  private joined(): SqlSession | undefined {
    const state = this.context.getStore();
    return state?.open ? state.session : undefined;
  }

  /** A statement outside any transaction: at once when the connection is free, else after the holder. */
  private outside<T>(fn: () => T): Promise<T> {
    if (this.gate.tryEnter()) {
      try {
        return Promise.resolve(this.runner.read('sql', fn));
      } catch (error) {
        return Promise.reject(error);
      } finally {
        this.gate.leave();
      }
    }
    return this.gate.enter().then(() => {
      try {
        return this.runner.read('sql', fn);
      } finally {
        this.gate.leave();
      }
    });
  }

  private transactionSession(): SqlSession {
    const session: SqlSession = {
      dialect: SQLITE_DIALECT,
      query: async <R extends object>(sql: string, params?: SqlParams) => this.all(sql, params) as R[],
      get: async <R extends object>(sql: string, params?: SqlParams) =>
        this.first(sql, params) as R | undefined,
      exec: async (sql: string, params?: SqlParams) => this.run(sql, params),
      transaction: <T>(fn: (tx: SqlSession) => Promise<T>) => fn(session),
    };
    return session;
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      if (this.statements.size >= STATEMENT_CACHE_LIMIT) this.statements.clear();
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private all(sql: string, params?: SqlParams): unknown[] {
    return this.prepare(sql).all(...sqliteValues(params));
  }

  private first(sql: string, params?: SqlParams): unknown {
    return this.prepare(sql).get(...sqliteValues(params));
  }

  private run(sql: string, params?: SqlParams): SqlRunResult {
    const statement = this.prepare(sql);
    if (statement.reader) return { changes: statement.all(...sqliteValues(params)).length };
    return { changes: statement.run(...sqliteValues(params)).changes };
  }
}
