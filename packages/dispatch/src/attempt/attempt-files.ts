import { closeSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
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

/** `out-<action>-attempt-<n>` (or its `.stderr`): the action is everything before the last `-attempt-<n>`. */
const ATTEMPT_FILE = /^out-(.+)-attempt-(\d+)(?:\.stderr)?$/;

/** What one scan of a directory found, and the directory's identity and mtime right after our last create. */
interface DirectoryIndex {
  readonly highest: Map<string, number>;
  ino: bigint;
  mtimeNs: bigint;
}

/** At most this many directories are remembered (a workflow run writes into one). */
const INDEXED_DIRECTORIES = 8;
const indexes = new Map<string, DirectoryIndex>();

/**
 * The highest attempt number of every action in `directory`, scanned once and then kept up to
 * date by {@link createAttemptFiles} itself: a fan-out of N items into one folder otherwise reads
 * the whole folder for every item (quadratic). The index is trusted only while the directory's
 * mtime is the one seen right after this process's last create there; any other change (another
 * process, a file removed) makes the next claim scan again. A change the mtime cannot show (within
 * the same clock tick as our own create) can only make a claim start below a number another
 * process took; the exclusive create then moves it on, so no file is ever overwritten.
 */
function indexOf(directory: string): DirectoryIndex {
  const stat = statSync(directory, { bigint: true });
  const known = indexes.get(directory);
  if (known && known.ino === stat.ino && known.mtimeNs === stat.mtimeNs) return known;
  const highest = new Map<string, number>();
  for (const entry of readdirSync(directory)) {
    const match = ATTEMPT_FILE.exec(entry);
    if (!match) continue;
    const action = match[1] as string;
    const attempt = Number(match[2]);
    if (attempt > (highest.get(action) ?? 0)) highest.set(action, attempt);
  }
  const index: DirectoryIndex = { highest, ino: stat.ino, mtimeNs: stat.mtimeNs };
  indexes.delete(directory);
  indexes.set(directory, index);
  if (indexes.size > INDEXED_DIRECTORIES) indexes.delete(indexes.keys().next().value as string);
  return index;
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
  const index = indexOf(directory);
  let attempt = Math.max(minAttempt, (index.highest.get(action) ?? 0) + 1);
  for (;;) {
    const outputFile = join(directory, formatAttemptFileName(action, attempt));
    const stderrFile = `${outputFile}.stderr`;
    let outputFd: number | undefined;
    try {
      outputFd = openSync(outputFile, 'wx', 0o600);
      const stderrFd = openSync(stderrFile, 'wx', 0o600);
      // The index knows this claim, and trusts the mtime after this process's own creates.
      index.highest.set(action, attempt);
      const stat = statSync(directory, { bigint: true });
      index.ino = stat.ino;
      index.mtimeNs = stat.mtimeNs;
      return { attempt, outputFile, stderrFile, outputFd, stderrFd };
    } catch (error) {
      if (outputFd !== undefined) closeSync(outputFd);
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        // What is there now is unknown: the next claim scans again.
        indexes.delete(directory);
        throw error;
      }
      // The stdout file we just created stays (empty) when only the .stderr existed: a later
      // scan then skips this number too, and nothing that was there is touched.
      attempt += 1;
    }
  }
}
