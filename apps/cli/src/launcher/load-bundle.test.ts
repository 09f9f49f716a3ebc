import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCacheDir, loadBundle, MAX_CACHE_FILES } from './load-bundle';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

function bundle(
  source = 'exports.answer = (x) => x * 2; exports.dir = __dirname; exports.req = typeof require;',
) {
  const dir = mkdtempSync(join(tmpdir(), 'bullswarm-load-bundle-'));
  dirs.push(dir);
  const path = join(dir, 'bundle.cjs');
  writeFileSync(path, source);
  return { dir, path, cacheDir: join(dir, 'cache') };
}

describe('loadBundle', () => {
  it('loads a CommonJS bundle with require, __dirname and module.exports', () => {
    const b = bundle();
    const loaded = loadBundle(b.path, { cacheDir: undefined, version: '1.0.0' });
    expect((loaded.exports.answer as (x: number) => number)(21)).toBe(42);
    expect(loaded.exports.dir).toBe(b.dir);
    expect(loaded.exports.req).toBe('function');
    expect(loaded.cacheFile).toBeUndefined();
    loaded.saveCache(); // off: nothing to write, no error
  });

  // Whether V8 accepts or rejects a cache is tested on the built binary (test/compile-cache.test.ts):
  // in one process V8's in-memory compilation cache answers a second compile of the same source
  // before the code cache is looked at.
  it('writes a code cache named by version and variant', () => {
    const b = bundle();
    const first = loadBundle(b.path, { cacheDir: b.cacheDir, version: '1.0.0', variant: 'pools' });
    expect(first.cacheUsed).toBe(false);
    expect(first.cacheFile).toMatch(/bullswarm-bundle\.cjs-1\.0\.0-v\d+\.\d+\.\d+-\w+-\d+-\d+\.pools\.v8$/);
    first.saveCache();
    expect(readdirSync(b.cacheDir)).toEqual([first.cacheFile!.split('/').pop()]);
    expect(statSync(first.cacheFile!).size).toBeGreaterThan(0);
  });

  it('a changed bundle gets a new cache and the old build’s files are removed', () => {
    const b = bundle();
    const first = loadBundle(b.path, { cacheDir: b.cacheDir, version: '1.0.0' });
    first.saveCache();
    writeFileSync(b.path, 'exports.answer = (x) => x * 3;');
    utimesSync(b.path, new Date(), new Date(Date.now() + 5_000));
    const second = loadBundle(b.path, { cacheDir: b.cacheDir, version: '1.0.0' });
    expect(second.cacheFile).not.toBe(first.cacheFile);
    expect((second.exports.answer as (x: number) => number)(2)).toBe(6);
    second.saveCache();
    expect(readdirSync(b.cacheDir)).toEqual([second.cacheFile!.split('/').pop()]);
  });

  it(`keeps at most ${MAX_CACHE_FILES} variants of one build`, () => {
    const b = bundle();
    for (let i = 0; i < MAX_CACHE_FILES + 3; i++) {
      loadBundle(b.path, { cacheDir: b.cacheDir, version: '1.0.0', variant: `v${i}` }).saveCache();
    }
    expect(readdirSync(b.cacheDir)).toHaveLength(MAX_CACHE_FILES);
  });

  it('an unwritable cache directory never fails the load', () => {
    const b = bundle();
    const cacheDir = join(b.dir, 'ro');
    writeFileSync(join(b.dir, 'placeholder'), '');
    chmodSync(b.dir, 0o500);
    const loaded = loadBundle(b.path, { cacheDir, version: '1.0.0' });
    expect(() => loaded.saveCache()).not.toThrow();
    expect((loaded.exports.answer as (x: number) => number)(1)).toBe(2);
  });
});

describe('compileCacheDir', () => {
  it.each([
    [{ BULLSWARM_COMPILE_CACHE: '0', BULLSWARM_CACHE_DIR: '/c' }, undefined],
    [{ BULLSWARM_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }, '/c'],
    [{ XDG_CACHE_HOME: '/x' }, '/x/bullswarm'],
    [{}, '/home/me/.cache/bullswarm'],
  ])('%j → %s', (env, expected) => {
    expect(compileCacheDir(env, '/home/me')).toBe(expected);
  });
});
