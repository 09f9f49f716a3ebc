import { closeSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** An action name usable in a file name: letters, digits, `.`, `_`, `-`, not starting with `.` or `-`. */
export const ACTION_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/**
 * The file name of one attempt's raw stdout: `out-<action>-attempt-<n>` (its stderr goes beside
 * it as `out-<action>-attempt-<n>.stderr`).
 *
 * @example formatAttemptFileName('run', 1) // 'out-run-attempt-1'
 */
export function formatAttemptFileName(action: string, attempt: number): string {
  return `out-${action}-attempt-${attempt}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The next free attempt number of `action` in `directory`: one more than the highest
 * `out-<action>-attempt-<n>` (or its `.stderr`) already there, 1 for an empty or missing
 * directory. Earlier attempts are never overwritten; {@link createAttemptFiles} also claims the
 * number with an exclusive create, so two processes never share one.
 */
export function nextAttemptNumber(directory: string, action: string): number {
  let entries: string[];
  try {
    entries = readdirSync(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 1;
    throw error;
  }
  const pattern = new RegExp(`^out-${escapeRegExp(action)}-attempt-(\\d+)(?:\\.stderr)?$`);
  let highest = 0;
  for (const entry of entries) {
    const match = pattern.exec(entry);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return highest + 1;
}

/** The two files of one attempt, created empty (0600, in a 0700 directory) and claimed. */
export interface AttemptFiles {
  readonly attempt: number;
  /** `<dir>/out-<action>-attempt-<n>`: the raw stdout. */
  readonly outputFile: string;
  /** `<dir>/out-<action>-attempt-<n>.stderr`. */
  readonly stderrFile: string;
  /** Open descriptors (append) of the two files; the caller closes them. */
  readonly outputFd: number;
  readonly stderrFd: number;
}

/**
 * Claims the next attempt number at or after `minAttempt` in `directory` (created if missing) by
 * creating both files with `wx` (fail if they exist), moving on to the next number when either
 * exists — so an earlier attempt's output is never overwritten, even by a concurrent process.
 */
export function createAttemptFiles(directory: string, action: string, minAttempt = 1): AttemptFiles {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  let attempt = Math.max(minAttempt, nextAttemptNumber(directory, action));
  for (;;) {
    const outputFile = join(directory, formatAttemptFileName(action, attempt));
    const stderrFile = `${outputFile}.stderr`;
    let outputFd: number | undefined;
    try {
      outputFd = openSync(outputFile, 'wx', 0o600);
      const stderrFd = openSync(stderrFile, 'wx', 0o600);
      return { attempt, outputFile, stderrFile, outputFd, stderrFd };
    } catch (error) {
      if (outputFd !== undefined) closeSync(outputFd);
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // The stdout file we just created stays (empty) when only the .stderr existed: a later
      // scan then skips this number too, and nothing that was there is touched.
      attempt += 1;
    }
  }
}
