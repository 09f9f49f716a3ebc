import { closeSync, openSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { sleepSync } from '@bullswarm/connectors/internal';
import Database from 'better-sqlite3';
import { FileLockTimeoutError } from '../errors/file-lock-timeout-error';
import { NestedFileLockError } from '../errors/nested-file-lock-error';
import { assertSynchronous } from '../sqlite/assert-synchronous';
import { isBusyError } from '../sqlite/busy-retry';

export interface FileLockOptions {
  /** How long to wait for another process's lock before giving up (default 10 000 ms). */
  readonly timeoutMs?: number;
}

/** The lock file guarding `filePath`: `.<name>.lock` beside it. */
export function lockPathFor(filePath: string): string {
  return join(dirname(filePath), `.${basename(filePath)}.lock`);
}

const heldInThisProcess = new Set<string>();

/**
 * Run `fn` while holding the exclusive update lock of `filePath`, so read-modify-write cycles of
 * several processes never lose each other's change. The directory of `filePath` must exist.
 *
 * The lock is an OS file lock, taken through SQLite on a small lock file `.<name>.lock` beside the
 * file (`BEGIN EXCLUSIVE` on a rollback-journal database: POSIX advisory locks on Unix, LockFileEx
 * on Windows). The kernel drops it when the holder exits in any way, kill -9 included, so there is
 * never a stale lock to detect or break, and pid reuse cannot fool it. (This replaces a
 * `wx`-created pid file with stale-pid detection: breaking a stale pid file races with a process
 * taking the lock at the same moment; a kernel lock does not.)
 *
 * Waiting polls with short jittered sleeps up to `timeoutMs`, then throws
 * {@link FileLockTimeoutError}. A nested lock of the same file in the same process throws
 * {@link NestedFileLockError}. `fn` must be synchronous.
 */
export function withFileLock<T>(filePath: string, fn: () => T, options: FileLockOptions = {}): T {
  const lockPath = lockPathFor(filePath);
  if (heldInThisProcess.has(lockPath)) throw new NestedFileLockError({ filePath });
  const timeoutMs = options.timeoutMs ?? 10_000;
  // Created 0600 before SQLite opens it (SQLite would create it 0644; its -journal copies the mode).
  closeSync(openSync(lockPath, 'a', 0o600));
  const db = new Database(lockPath, { timeout: 0 });
  try {
    const started = Date.now();
    let delay = 2;
    for (;;) {
      try {
        db.exec('BEGIN EXCLUSIVE');
        break;
      } catch (error) {
        if (!isBusyError(error)) throw error;
        const waited = Date.now() - started;
        if (waited >= timeoutMs) {
          throw new FileLockTimeoutError({ filePath, lockPath, waitedMs: waited, cause: error });
        }
        sleepSync(Math.min(delay * (0.5 + Math.random()), timeoutMs - waited));
        delay = Math.min(delay * 2, 50);
      }
    }
    heldInThisProcess.add(lockPath);
    try {
      const result = fn();
      assertSynchronous(result, `withFileLock(${filePath}): fn`);
      return result;
    } finally {
      heldInThisProcess.delete(lockPath);
      db.exec('ROLLBACK');
    }
  } finally {
    db.close();
  }
}
