import { sleepSync } from '@bullswarm/connectors/internal';
import type Database from 'better-sqlite3';
import { StoreBusyError } from '../errors/store-busy-error';
import { isStoreFault, StoreFaultError } from '../errors/store-fault-error';
import { assertSynchronous } from './assert-synchronous';

/** Whether an error is SQLite reporting a lock held by another connection. */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** How hard the store tries before giving up on a lock. */
export interface BusyRetryPolicy {
  /** Attempts per operation (each attempt itself waits up to the busy timeout). */
  readonly maxAttempts: number;
  /** Upper bound of the first back-off between attempts; doubles per attempt, capped at 1 s. */
  readonly baseDelayMs: number;
}

/**
 * Runs store operations so that SQLite's "database is locked" never reaches a caller: an
 * `SQLITE_BUSY`/`SQLITE_LOCKED` failure is retried after a jittered, growing back-off, and after
 * `maxAttempts` a {@link StoreBusyError} is thrown instead. A fault of the disk or the file (full,
 * read-only, damaged, I/O error) becomes a {@link StoreFaultError} naming the database.
 *
 * A read-only runner (a store opened where it cannot be written) refuses `write` at once with a
 * `SQLITE_READONLY` {@link StoreFaultError}; `writeIfWritable` skips the write (caches, reaping).
 */
export class BusyRunner {
  constructor(
    private readonly db: Database.Database,
    private readonly dbPath: string,
    private readonly policy: BusyRetryPolicy,
    /** The store was opened read-only (its file or home cannot be written). */
    readonly readOnly = false,
  ) {}

  /**
   * A write that only keeps a cache or tidies up (meter cache and readings, probe results, reaping
   * dead ledger entries): on a read-only store it is skipped and `skipped` is returned.
   */
  writeIfWritable<T>(operation: string, fn: () => T, skipped: T): T {
    return this.readOnly ? skipped : this.write(operation, fn);
  }

  /** A read (or a single autocommit statement), retried on busy. */
  read<T>(operation: string, fn: () => T): T {
    if (this.db.inTransaction) return fn();
    return this.retry(operation, fn);
  }

  /**
   * A write transaction: `BEGIN IMMEDIATE` (take the write lock up front, so the transaction
   * cannot fail half-way on a lock), run `fn`, `COMMIT`. Inside another transaction `fn` simply
   * joins it. On busy the whole transaction is rolled back and re-run, so `fn` must only touch the
   * database (it may run more than once; in practice busy is raised by `BEGIN`, before `fn` runs).
   */
  write<T>(operation: string, fn: () => T): T {
    if (this.readOnly) throw new StoreFaultError({ dbPath: this.dbPath, code: 'SQLITE_READONLY', operation });
    if (this.db.inTransaction) return fn();
    return this.retry(operation, () => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = fn();
        assertSynchronous(result, `${operation}: the transaction function`);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  private retry<T>(operation: string, fn: () => T): T {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return fn();
      } catch (error) {
        if (isStoreFault(error)) {
          throw new StoreFaultError({
            dbPath: this.dbPath,
            code: (error as { code: string }).code,
            operation,
            cause: error,
          });
        }
        if (!isBusyError(error)) throw error;
        if (attempt >= this.policy.maxAttempts) {
          throw new StoreBusyError({
            dbPath: this.dbPath,
            operation,
            attempts: attempt,
            waitedMs: Date.now() - started,
            cause: error,
          });
        }
        const ceiling = Math.min(this.policy.baseDelayMs * 2 ** (attempt - 1), 1000);
        sleepSync(ceiling / 2 + Math.random() * (ceiling / 2));
      }
    }
  }
}
