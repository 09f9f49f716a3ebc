import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The directories of {@link tempDirs}: `make` one, `cleanup` removes every one made so far. */
export interface TempDirs {
  /** A new directory `$TMPDIR/<prefix>XXXXXX`. */
  make(prefix?: string): string;
  /** Removes every directory made since the last clean-up. */
  cleanup(): void;
}

/**
 * Temporary directories a test file removes itself, with the hook that fits where it makes them:
 *
 * ```ts
 * const dirs = tempDirs();
 * afterEach(() => dirs.cleanup()); // made inside tests (afterAll when made in beforeAll)
 * ```
 *
 * tooling/test-support/src/tmp-guard.ts fails a run that leaves a temporary folder behind.
 */
export function tempDirs(defaultPrefix = 'bullswarm-test-'): TempDirs {
  const made: string[] = [];
  return {
    make(prefix = defaultPrefix): string {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    cleanup(): void {
      for (const dir of made.splice(0)) {
        rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      }
    },
  };
}
