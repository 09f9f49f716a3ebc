import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFilesMatcher } from './glob-match';
import { TreeTracker } from './tree-tracker';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wf-tree-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'node_modules', 'x'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), 'hi');
  return dir;
}

function write(dir: string, path: string, text = 'x'): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
}

describe('createFilesMatcher', () => {
  it.each([
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/a/b/c.ts', true],
    ['src/**/*.ts', 'src/a.js', false],
    ['docs/**', 'docs/a/b.md', true],
    ['*.md', 'README.md', true],
    ['*.md', 'docs/a.md', false],
    ['**/*.md', 'docs/a.md', true],
    ['out/{a,b}.md', 'out/b.md', true],
    ['out/[!x]?.md', 'out/ab.md', true],
    ['a.(b)+', 'a.(b)+', true],
    ['*.md', '.hidden.md', true],
    ['**/*.md', '.git/x.md', true],
    ['./docs/*.md', 'docs/a.md', true],
  ])('%s vs %s → %s', (glob, path, expected) => {
    expect(createFilesMatcher([glob])(path)).toBe(expected);
  });

  it('an empty list matches nothing', () => {
    expect(createFilesMatcher([])('anything')).toBe(false);
  });
});

describe('TreeTracker (a size+mtime walk)', () => {
  it('attributes changes to the ending unit, to another running unit whose files match, or flags them', async () => {
    const dir = tree();
    const tracker = new TreeTracker(dir);
    await tracker.init();
    expect(tracker.treeMode).toBe('walk');
    tracker.register('a', ['a/**']);
    tracker.register('b', ['b/**']);
    write(dir, 'a/x.txt');
    write(dir, 'b/y.txt');
    write(dir, 'stray.txt');
    write(dir, 'node_modules/x/ignored.js');
    expect(await tracker.check('a')).toEqual({ own: ['a/x.txt'], outside: ['stray.txt'], endedWith: [] });
    tracker.unregister('a');
    // b's change was seen at a's check and kept for b; nothing new since.
    expect(await tracker.check('b')).toEqual({ own: ['b/y.txt'], outside: [], endedWith: [] });
  });

  it('absorbs a gate’s output without blaming anyone', async () => {
    const dir = tree();
    const tracker = new TreeTracker(dir, ['home']);
    await tracker.init();
    tracker.register('a', []);
    write(dir, 'coverage/report.txt');
    await tracker.absorb();
    write(dir, 'home/workflows/state.json');
    expect(await tracker.check('a')).toEqual({ own: [], outside: [], endedWith: [] });
    writeFileSync(join(dir, 'README.md'), 'changed, longer');
    expect((await tracker.check('a')).outside).toEqual(['README.md']);
  });

  it('units ending while a snapshot is taken share the next one', async () => {
    const dir = tree();
    const tracker = new TreeTracker(dir);
    await tracker.init();
    tracker.register('a', []);
    tracker.register('b', []);
    tracker.register('c', []);
    write(dir, 'first.txt');
    const first = tracker.check('a');
    write(dir, 'second.txt');
    const [a, b, c] = await Promise.all([first, tracker.check('b'), tracker.check('c')]);
    expect(a).toEqual({ own: [], outside: ['first.txt'], endedWith: [] });
    expect(b).toEqual({ own: [], outside: ['second.txt'], endedWith: ['c'] });
    expect(c).toEqual({ own: [], outside: ['second.txt'], endedWith: ['b'] });
    expect(tracker.snapshots).toBe(2);
  });
});
