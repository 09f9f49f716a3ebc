import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchWorkTree } from './work-tree-watcher';

const dirs: string[] = [];
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes `file` (new content each time) until `seen()` holds: a watch set up asynchronously (the
 * initial walk, a directory just created) or a first scan that has not run yet catches one of the
 * writes, however slow the machine. Throws when none is ever seen.
 */
async function writeUntilSeen(file: string, seen: () => boolean): Promise<void> {
  for (let write = 0; write < 100; write += 1) {
    writeFileSync(file, `write ${write}`);
    for (let look = 0; look < 10; look += 1) {
      if (seen()) return;
      await pause(10);
    }
  }
  throw new Error(`no change seen after 100 writes of ${file}`);
}

describe('watchWorkTree with fs.watch per directory', () => {
  it('names changes in nested and newly created directories, never in node_modules, .git or ignored paths', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bullswarm-watch-'));
    dirs.push(root);
    for (const sub of ['src/deep', 'node_modules/pkg', '.git/objects', 'out'])
      mkdirSync(join(root, sub), { recursive: true });
    const paths: (string | undefined)[] = [];
    const watcher = watchWorkTree({
      roots: [root],
      ignorePaths: [join(root, 'out')],
      onChange: (path) => paths.push(path),
    });
    closers.push(() => watcher.close());
    expect(watcher.mode()).toBe('watch');

    const nested = join(root, 'src', 'deep', 'a.ts');
    await writeUntilSeen(nested, () => paths.includes(nested));

    // Changes below the ignored directories, then one that counts: the watches report in order, so
    // once the last is seen, any report of the others would have come before it.
    writeFileSync(join(root, 'node_modules', 'pkg', 'index.js'), 'x');
    writeFileSync(join(root, '.git', 'objects', 'ab'), 'x');
    writeFileSync(join(root, 'out', 'out-run-attempt-1'), 'x');
    const sentinel = join(root, 'src', 'deep', 'b.ts');
    await writeUntilSeen(sentinel, () => paths.includes(sentinel));
    for (const ignored of ['node_modules', '.git', 'out']) {
      expect(paths.filter((path) => path?.startsWith(join(root, ignored) + sep))).toEqual([]);
    }

    // A directory created after the start gets its own watch: a file written inside it is named.
    const created = join(root, 'src', 'new');
    mkdirSync(created);
    const inside = join(created, 'c.ts');
    await writeUntilSeen(inside, () => paths.includes(inside));
    expect(paths).toContain(created);
  });
});

describe('watchWorkTree with the polling fallback', () => {
  it('sees a change in a nested (and a newly created) directory, but not in node_modules, .git or ignored paths', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bullswarm-watch-'));
    dirs.push(root);
    for (const sub of ['src/deep', 'node_modules/pkg', '.git/objects', 'out'])
      mkdirSync(join(root, sub), { recursive: true });
    const paths: (string | undefined)[] = [];
    const watcher = watchWorkTree({
      roots: [root],
      ignorePaths: [join(root, 'out')],
      onChange: (path) => paths.push(path),
      pollMs: 50,
      forcePolling: true,
    });
    closers.push(() => watcher.close());
    expect(watcher.mode()).toBe('poll');

    // Seen once the first scan has run; a scan names no path.
    await writeUntilSeen(join(root, 'src', 'deep', 'a.ts'), () => paths.length > 0);
    expect(paths.every((path) => path === undefined)).toBe(true);

    // Nothing under the ignored directories changes the scanned tree. (A slow machine may scan
    // fewer times in the pause; it can then miss a wrong report, never make one up.)
    const before = paths.length;
    writeFileSync(join(root, 'node_modules', 'pkg', 'index.js'), 'x');
    writeFileSync(join(root, '.git', 'objects', 'ab'), 'x');
    writeFileSync(join(root, 'out', 'out-run-attempt-1'), 'x');
    await pause(300);
    expect(paths.length).toBe(before);

    // A directory created after the start is scanned too: a file written inside it is a change.
    mkdirSync(join(root, 'src', 'new'));
    for (let i = 0; i < 400 && paths.length === before; i += 1) await pause(10);
    const afterMkdir = paths.length;
    expect(afterMkdir).toBeGreaterThan(before);
    await writeUntilSeen(join(root, 'src', 'new', 'b.ts'), () => paths.length > afterMkdir);
  });
});
