import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;

describe('@bullswarm/pacing package.json', () => {
  it('has zero runtime dependencies (the routing core must stay dependency-free)', () => {
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies']) {
      const value = pkg[field];
      const entries = value === undefined ? [] : Object.keys(value as object);
      expect(entries, `${field} must be empty`).toEqual([]);
    }
  });

  it('is ESM-only and side-effect free', () => {
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toBe(false);
  });
});
