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

  it('is side-effect free and ships ESM and CommonJS, each with its own declarations', () => {
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toBe(false);
    const exportsMap = pkg.exports as Record<string, Record<string, unknown>>;
    for (const [subpath, name] of [
      ['.', 'index'],
      ['./internal', 'internal'],
    ] as const) {
      expect(exportsMap[subpath]).toMatchObject({
        import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
        require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
      });
    }
  });

  it('publishes the same exports without the workspace-only source condition', () => {
    const published = (pkg.publishConfig as { exports: unknown }).exports;
    expect(JSON.stringify(published)).not.toContain('@bullswarm/source');
    const { '@bullswarm/source': _source, ...dotWithoutSource } = (pkg.exports as Record<string, object>)[
      '.'
    ] as Record<string, unknown>;
    expect((published as Record<string, unknown>)['.']).toEqual(dotWithoutSource);
  });
});
