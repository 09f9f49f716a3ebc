import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { FileLockTimeoutError } from '../errors/file-lock-timeout-error';
import { NestedFileLockError } from '../errors/nested-file-lock-error';
import { catchError } from '../test-support/catch-error';
import { spawnNode } from '../test-support/spawn-node';
import { useTempDirs } from '../test-support/temp-dir';
import { lockPathFor, withFileLock } from './file-lock';

const tempDir = useTempDirs();

describe('withFileLock', () => {
  it('runs fn under the lock, returns its result, and releases on success and on error', () => {
    const file = join(tempDir(), 'state.json');
    expect(lockPathFor(file)).toBe(join(file, '..', '.state.json.lock'));
    expect(withFileLock(file, () => 42)).toBe(42);
    expect(() =>
      withFileLock(file, () => {
        throw new Error('inside');
      }),
    ).toThrow('inside');
    expect(withFileLock(file, () => 'again', { timeoutMs: 0 })).toBe('again');
  });

  it('refuses an async fn (it would run outside the lock) and releases the lock', () => {
    const file = join(tempDir(), 'state.json');
    expect(() => withFileLock(file, async () => 1)).toThrow(
      `withFileLock(${file}): fn must be synchronous, it returned a promise`,
    );
    expect(withFileLock(file, () => 'free', { timeoutMs: 0 })).toBe('free');
  });

  it('refuses a nested lock of the same file, allows another file', () => {
    const dir = tempDir();
    const error = catchError(() =>
      withFileLock(join(dir, 'a.json'), () => withFileLock(join(dir, 'a.json'), () => 1)),
    );
    expect(NestedFileLockError.isInstance(error)).toBe(true);
    expect(withFileLock(join(dir, 'a.json'), () => withFileLock(join(dir, 'b.json'), () => 'ok'))).toBe('ok');
  });

  it('times out with FileLockTimeoutError while another holder keeps it', () => {
    const file = join(tempDir(), 'state.json');
    const holder = new Database(lockPathFor(file));
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const caught = catchError(() => withFileLock(file, () => 1, { timeoutMs: 30 }));
      expect(FileLockTimeoutError.isInstance(caught)).toBe(true);
      expect((caught as FileLockTimeoutError).filePath).toBe(file);
      expect((caught as FileLockTimeoutError).message).toMatch(/another bullswarm process held/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(withFileLock(file, () => 'free')).toBe('free');
  });

  it('is released by the kernel when the holding process is killed', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'state.json');
    const script = `
      const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
      const db = new Database(${JSON.stringify(lockPathFor(file))});
      db.exec('BEGIN EXCLUSIVE');
      process.stdout.write('locked\\n');
      setInterval(() => {}, 1000);
    `;
    const holder = spawnNode('-e', [script]);
    await new Promise<void>((resolve) => holder.child.stdout?.once('data', () => resolve()));
    expect(() => withFileLock(file, () => 1, { timeoutMs: 20 })).toThrow(FileLockTimeoutError);
    holder.child.kill('SIGKILL');
    await holder.done;
    expect(withFileLock(file, () => 'taken over', { timeoutMs: 5000 })).toBe('taken over');
  });
});
