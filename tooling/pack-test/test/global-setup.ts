import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { type PackedPackage, startLocalRegistry } from './local-registry';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    /** The local registry of the packed `@bullswarm/*` tarballs (local-registry.ts). */
    registryUrl: string;
    /** Every packed package, from `<repo>/packed/packed.json`. */
    packed: PackedPackage[];
  }
}

/**
 * Reads the tarballs `pnpm pack:all` wrote (tooling/scripts/pack-workspace.mjs; `pnpm test:pack`
 * runs it first) and serves them from a local registry for the whole run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = join(repoRoot, 'packed');
  const listFile = join(dir, 'packed.json');
  if (!existsSync(listFile)) {
    throw new Error(
      `${listFile} is missing: run \`pnpm test:pack\` from the repository root (it builds and packs every package first)`,
    );
  }
  const list = JSON.parse(readFileSync(listFile, 'utf8')) as {
    name: string;
    version: string;
    tarball: string;
  }[];
  const packed: PackedPackage[] = list.map((entry) => {
    const tarball = join(dir, entry.tarball);
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
    ) as Record<string, unknown>;
    return { name: entry.name, version: entry.version, tarball, manifest };
  });
  const registry = await startLocalRegistry(packed);
  project.provide('registryUrl', registry.url);
  project.provide('packed', packed);
  return () => registry.close();
}
