import * as crypto from 'node:crypto';
import * as fsPromises from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { LAZY_BUILTINS, lazyBuiltinRequire } from './lazy-require';

function countingRequire() {
  const base = createRequire(import.meta.url);
  const loaded: string[] = [];
  const counting = ((id: string) => {
    loaded.push(id);
    return base(id);
  }) as NodeJS.Require;
  counting.resolve = base.resolve;
  counting.cache = base.cache;
  return { require: counting, loaded };
}

describe('lazyBuiltinRequire', () => {
  it('loads a lazy built-in on the first read of a member, once, and forwards to it', () => {
    const { require, loaded } = countingRequire();
    const lazy = lazyBuiltinRequire(require);
    const standIn = lazy('node:crypto') as typeof crypto;
    expect(lazy('crypto')).toBe(standIn);
    expect(loaded).toEqual([]);

    expect(standIn.randomBytes(4)).toHaveLength(4);
    expect(standIn.randomBytes).toBe(crypto.randomBytes);
    expect(loaded).toEqual(['node:crypto']);
    expect(typeof standIn.createHash).toBe('function');
    expect(loaded).toEqual(['node:crypto']);
  });

  it('keys, `in` and property descriptors are the real module’s (what a bundle’s interop reads)', () => {
    const lazy = lazyBuiltinRequire(countingRequire().require);
    const standIn = lazy('fs/promises') as Record<string, unknown>;
    const real = createRequire(import.meta.url)('node:fs/promises') as object;
    expect(Object.keys(standIn)).toEqual(Object.keys(real));
    expect(Object.getOwnPropertyNames(standIn)).toEqual(Object.getOwnPropertyNames(real));
    expect('readFile' in standIn).toBe(true);
    for (const key of Object.getOwnPropertyNames(standIn)) {
      expect(Object.getOwnPropertyDescriptor(standIn, key)).toBeDefined();
    }
    // esbuild's __toESM copies every property of a CommonJS module with getters.
    const copy: Record<string, unknown> = {};
    for (const key of Object.getOwnPropertyNames(standIn)) {
      Object.defineProperty(copy, key, { get: () => standIn[key], enumerable: true });
    }
    expect(copy.readFile).toBe(fsPromises.readFile);
  });

  it('passes every other id straight to the base require, and keeps resolve', () => {
    const { require, loaded } = countingRequire();
    const lazy = lazyBuiltinRequire(require);
    expect(lazy('node:path')).toBe(createRequire(import.meta.url)('node:path'));
    expect(loaded).toEqual(['node:path']);
    expect(lazy.resolve('node:path')).toBe('node:path');
  });

  it('only built-ins whose export is a plain object are lazy', () => {
    const require = createRequire(import.meta.url);
    for (const name of LAZY_BUILTINS) expect(typeof require(`node:${name}`)).toBe('object');
  });
});
