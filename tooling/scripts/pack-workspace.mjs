// Packs every publishable workspace package (packages/*, apps/*: not "private") with `pnpm pack`,
// which applies `publishConfig` and rewrites `workspace:` ranges to versions — the tarballs are
// what `npm publish` would upload. Shared by `pnpm lint:packages` and `pnpm test:pack`
// (docs/architecture.md, "Publishing").
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '..', '..');
export const PNPM_VERSION = '10.34.9';

/** The publishable packages: `{ name, dir, manifest }`, in the repo's layering order. */
export function publishablePackages() {
  const found = [];
  for (const group of ['packages', 'apps']) {
    const groupDir = path.join(repoRoot, group);
    for (const name of readdirSync(groupDir).sort()) {
      const file = path.join(groupDir, name, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      if (manifest.private) continue;
      found.push({ name: manifest.name, dir: path.join(groupDir, name), manifest });
    }
  }
  return found;
}

/** Runs pnpm: the one running this script when there is one, else the pinned version via npx. */
export function pnpm(args, options = {}) {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: read by this script, never inside a turbo task (nothing to cache)
  const execPath = process.env.npm_execpath;
  const [command, prefix] =
    execPath && /pnpm/.test(execPath)
      ? [process.execPath, [execPath]]
      : ['npx', ['-y', `pnpm@${PNPM_VERSION}`]];
  return execFileSync(command, [...prefix, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
}

/**
 * Packs each publishable package into `destination` (which must exist); returns
 * `[{ name, dir, tarball }]`. The packages must be built first (`turbo run build`).
 */
export function packAll(destination) {
  return publishablePackages().map((pkg) => {
    for (const entry of ['dist']) {
      if (!existsSync(path.join(pkg.dir, entry))) {
        throw new Error(`${pkg.name}: ${entry}/ is missing in ${pkg.dir}; build first (pnpm build)`);
      }
    }
    const before = new Set(readdirSync(destination));
    pnpm(['pack', '--pack-destination', destination], { cwd: pkg.dir });
    const added = readdirSync(destination).filter((file) => !before.has(file) && file.endsWith('.tgz'));
    if (added.length !== 1)
      throw new Error(`${pkg.name}: pnpm pack left ${added.length} tarballs in ${destination}`);
    return {
      name: pkg.name,
      dir: pkg.dir,
      manifest: pkg.manifest,
      tarball: path.join(destination, added[0]),
    };
  });
}
