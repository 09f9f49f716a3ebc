import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Entries a package's tests share across files on purpose and never remove one by one; the guard
 * removes them with the run's directory. Everything else left behind fails the run.
 * - `bullswarm-cli-test-compile-cache`: the V8 code cache every CLI test process shares
 *   (apps/cli/test/support/cli.ts `TEST_CACHE_DIR`).
 */
export const SHARED_TEST_TMP_ENTRIES: ReadonlySet<string> = new Set(['bullswarm-cli-test-compile-cache']);

/** The prefix of a test run's own temporary directory. */
export const TEST_RUN_TMP_PREFIX = 'bullswarm-test-run-';

/**
 * Removes the directories of earlier test runs whose process is gone (a run killed before its
 * teardown): `bullswarm-test-run-<pid>-<hex>` with no live `<pid>`. A live pid, even a reused one,
 * keeps its directory.
 */
function removeDeadRuns(base: string): void {
  for (const name of readdirSync(base)) {
    const pid = new RegExp(`^${TEST_RUN_TMP_PREFIX}(\\d+)-[0-9a-f]+$`).exec(name)?.[1];
    if (pid === undefined || pid === String(process.pid)) continue;
    try {
      process.kill(Number(pid), 0);
      continue; // alive (or not ours to signal): its run is still going
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') continue;
    }
    rmSync(join(base, name), { recursive: true, force: true });
  }
}

/**
 * A vitest `globalSetup` (first in every package's list): the test run gets its own temporary
 * directory, `$TMPDIR/bullswarm-test-run-<pid>-<hex>`, as `TMPDIR` (and `TMP`, `TEMP`) of the test
 * workers and of every process they start (`os.tmpdir()` reads it), so what a run leaves behind is
 * told apart from other runs on the machine. At teardown the directory is removed, and a run that
 * left anything in it (outside {@link SHARED_TEST_TMP_ENTRIES}) fails, naming each entry: remove
 * temporary folders in `afterEach`/`afterAll` or with `onTestFinished`.
 *
 * Only the run's own folders are compared, so concurrent runs of other packages (or other people)
 * never fool it; a process that ignores `TMPDIR` (writes `/tmp` by name) is not seen. The
 * directory of an earlier run killed before its teardown is removed at the next setup.
 */
export default function setupTmpGuard(): () => void {
  removeDeadRuns(tmpdir());
  const saved = { TMPDIR: process.env.TMPDIR, TMP: process.env.TMP, TEMP: process.env.TEMP };
  // Lower-case hex, not mkdtemp's mixed case: a path made of two mixed-case random parts reads as a
  // high-entropy token to the secret scan (packages/connectors/src/redact), which tests run on paths.
  const root = join(tmpdir(), `${TEST_RUN_TMP_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(root, { mode: 0o700 });
  process.env.TMPDIR = root;
  process.env.TMP = root;
  process.env.TEMP = root;
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    const left = readdirSync(root)
      .filter((name) => !SHARED_TEST_TMP_ENTRIES.has(name))
      .sort();
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    if (left.length > 0) {
      // Grouped by prefix (mkdtemp's six random characters dropped): `bullswarm-sim-cwd-* ×70`.
      const groups = new Map<string, number>();
      for (const name of left) {
        const key = name.replace(/[A-Za-z0-9]{6}$/, '*');
        groups.set(key, (groups.get(key) ?? 0) + 1);
      }
      const shown = [...groups].map(([key, count]) => (count === 1 ? key : `${key} ×${count}`)).join(', ');
      process.exitCode = 1;
      throw new Error(
        `the tests left ${left.length} temporary ${left.length === 1 ? 'entry' : 'entries'} behind in their TMPDIR (removed now): ${shown}; remove each in afterEach/afterAll or with onTestFinished (tooling/test-support/src/tmp-guard.ts)`,
      );
    }
  };
}
