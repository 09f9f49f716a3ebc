import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './support';

const packed = inject('packed');

/** The files of a tarball, without npm's `package/` prefix. */
function tarballFiles(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^package\//, ''));
}

function tarballText(tarball: string, file: string): string {
  return execFileSync('tar', ['-xzOf', tarball, `package/${file}`], { encoding: 'utf8' });
}

/** Every file an `exports` map points at (conditions flattened). */
function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(exportTargets);
}

/** The workspace's private packages: tooling a published package must never need. */
const PRIVATE = ['@bullswarm/test-support', '@bullswarm/pack-test', 'bullswarm-connector-template'];

/**
 * Test support a package must not ship. The CLI's `dist/connector-template/` is the exception:
 * it is the package `bullswarm connectors init` writes, whose tests and samples are the point.
 */
const TEST_SUPPORT =
  /(?:^|\/)(?:[^/]+\.test\.[cm]?[jt]s|__fixtures__\/|test-support\/|test-results\/|vitest\.config\.[cm]?[jt]s|vitest\.global-setup\.[jt]s)/;

describe('the packed packages', () => {
  it('are every publishable package of the workspace', () => {
    expect(packed.map((pkg) => pkg.name).sort()).toEqual([
      '@bullswarm/cli',
      '@bullswarm/connectors',
      '@bullswarm/dashboard',
      '@bullswarm/dispatch',
      '@bullswarm/mcp',
      '@bullswarm/meters',
      '@bullswarm/pacing',
      '@bullswarm/store',
      '@bullswarm/swarm',
      '@bullswarm/workflow',
    ]);
  });

  describe.each(packed.map((pkg) => [pkg.name, pkg] as const))('%s', (name, pkg) => {
    const files = tarballFiles(pkg.tarball);

    it('publishes a package.json without the workspace-only export condition or workspace ranges', () => {
      const text = JSON.stringify(pkg.manifest);
      expect(text).not.toContain('@bullswarm/source');
      expect(text).not.toContain('workspace:');
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
        const deps = Object.keys((pkg.manifest[field] as Record<string, string> | undefined) ?? {});
        for (const privateName of PRIVATE) expect(deps, `${name} ${field}`).not.toContain(privateName);
      }
      expect(pkg.manifest.publishConfig).toMatchObject({ access: 'public', provenance: true });
    });

    it('ships no test support', () => {
      const shipped = files.filter((file) => !file.startsWith('dist/connector-template/'));
      expect(shipped.filter((file) => TEST_SUPPORT.test(file))).toEqual([]);
    });

    it('ships the MIT LICENSE of the repository', () => {
      expect(files).toContain('LICENSE');
      expect(tarballText(pkg.tarball, 'LICENSE')).toBe(readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8'));
      expect(pkg.manifest.license).toBe('MIT');
    });

    it('ships every file its exports and bin name', () => {
      const targets = [
        ...exportTargets(pkg.manifest.exports),
        ...exportTargets(pkg.manifest.bin),
        ...exportTargets(pkg.manifest.main),
        ...exportTargets(pkg.manifest.types),
      ];
      for (const target of targets)
        expect(files, `${name}: ${target}`).toContain(target.replace(/^\.\//, ''));
    });

    it('gives each JSON Schema an $id where it is published (unpkg, by major version), exported there', () => {
      const schemas = files.filter((file) => file.endsWith('.schema.json') && !file.includes('/'));
      const major = String(pkg.version).split('.')[0];
      for (const file of schemas) {
        const schema = JSON.parse(tarballText(pkg.tarball, file)) as { $id?: string };
        expect(schema.$id, `${name}/${file}`).toBe(`https://unpkg.com/${name}@${major}/${file}`);
        // unpkg serves the file at that path of the published tarball, and `import` resolves it.
        const path = new URL(schema.$id!).pathname.slice(`/${name}@${major}/`.length);
        expect(files).toContain(path);
        expect((pkg.manifest.exports as Record<string, unknown>)[`./${path}`]).toBe(`./${path}`);
      }
    });
  });

  it('ship the JSON Schemas a user puts in $schema', () => {
    const schemas = packed.flatMap((pkg) =>
      tarballFiles(pkg.tarball)
        .filter((file) => file.endsWith('.schema.json') && !file.includes('/'))
        .map((file) => `${pkg.name}/${file}`),
    );
    expect(schemas.sort()).toEqual([
      '@bullswarm/connectors/connector.schema.json',
      '@bullswarm/meters/meter-reading.schema.json',
      '@bullswarm/store/pool-labels.schema.json',
      '@bullswarm/store/state.schema.json',
      '@bullswarm/workflow/workflow-program.schema.json',
    ]);
  });

  it('@bullswarm/pacing has no dependencies', () => {
    const pacing = packed.find((pkg) => pkg.name === '@bullswarm/pacing')!;
    expect(pacing.manifest.dependencies ?? {}).toEqual({});
    expect(pacing.manifest.peerDependencies ?? {}).toEqual({});
  });
});
