import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchWorkTree } from './work-tree-watcher';

const dirs: string[] = [];
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Resolves with the changed paths' count once `predicate` holds, polling the watcher's counter. */
async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !predicate(); i += 1) await new Promise((r) => setTimeout(r, 10));
}

describe.each([
  ['fs.watch per directory', false],
  ['the polling fallback', true],
])('watchWorkTree with %s', (_name, forcePolling) => {
  it('sees a change in a nested (and a newly created) directory, but not in node_modules, .git or ignored paths', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bullswarm-watch-'));
    dirs.push(root);
    for (const sub of ['src/deep', 'node_modules/pkg', '.git/objects', 'out'])
      mkdirSync(join(root, sub), { recursive: true });
    let changes = 0;
    const watcher = watchWorkTree({
      roots: [root],
      ignorePaths: [join(root, 'out')],
      onChange: () => {
        changes += 1;
      },
      pollMs: 50,
      forcePolling,
    });
    closers.push(() => watcher.close());
    expect(watcher.mode()).toBe(forcePolling ? 'poll' : 'watch');
    await new Promise((r) => setTimeout(r, 150)); // the initial walk / first scan

    writeFileSync(join(root, 'node_modules', 'pkg', 'index.js'), 'x');
    writeFileSync(join(root, '.git', 'objects', 'ab'), 'x');
    writeFileSync(join(root, 'out', 'out-run-attempt-1'), 'x');
    await new Promise((r) => setTimeout(r, 200));
    expect(changes).toBe(0);

    writeFileSync(join(root, 'src', 'deep', 'a.ts'), 'x');
    await until(() => changes > 0);
    expect(changes).toBeGreaterThan(0);

    const before = changes;
    mkdirSync(join(root, 'src', 'new'));
    await new Promise((r) => setTimeout(r, 150));
    writeFileSync(join(root, 'src', 'new', 'b.ts'), 'x');
    await until(() => changes > before + (forcePolling ? 0 : 1));
    expect(changes).toBeGreaterThan(before);
  });
});
