import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCacheDir, loadBundle, MAX_CACHE_FILES, MODULE_WRAPPER } from './load-bundle';

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

  it('compiles a bundle built inside the module wrapper as it is', () => {
    const b = bundle(
      `${MODULE_WRAPPER.head}exports.answer = (x) => x + 1; exports.file = __filename;${MODULE_WRAPPER.tail}`,
    );
    const loaded = loadBundle(b.path, { cacheDir: b.cacheDir, version: '1.0.0' });
    expect((loaded.exports.answer as (x: number) => number)(41)).toBe(42);
    expect(loaded.exports.file).toBe(b.path);
  });

  it('reads ASCII and UTF-8 bundles alike', () => {
    const utf8 = bundle("exports.text = 'caf\u00e9 \u2019 \u{1F600}'; // caf\u00e9 in a comment");
    expect(loadBundle(utf8.path, { cacheDir: undefined, version: '1' }).exports.text).toBe('café ’ 😀');
    const ascii = bundle("exports.text = 'caf\\u00e9';");
    expect(loadBundle(ascii.path, { cacheDir: undefined, version: '1' }).exports.text).toBe('café');
  });

  it('gives the bundle a require that loads node:crypto on first use', () => {
    const b = bundle("const c = require('node:crypto'); exports.bytes = () => c.randomBytes(3).length;");
    expect((loadBundle(b.path, { cacheDir: undefined, version: '1' }).exports.bytes as () => number)()).toBe(
      3,
    );
  });

  it('keeps the caches of another bundle file in the same directory', () => {
    const core = bundle();
    const other = join(core.dir, 'other.cjs');
    writeFileSync(other, 'exports.other = true;');
    loadBundle(other, { cacheDir: core.cacheDir, version: '1.0.0' }).saveCache();
    loadBundle(core.path, { cacheDir: core.cacheDir, version: '1.0.0' }).saveCache();
    expect(readdirSync(core.cacheDir).sort()).toEqual([
      expect.stringMatching(/^bullswarm-bundle\.cjs-/),
      expect.stringMatching(/^bullswarm-other\.cjs-/),
    ]);
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
