// Packs every publishable workspace package (packages/*, apps/*: not "private") with `pnpm pack`,
// which applies `publishConfig` and rewrites `workspace:` ranges to versions — the tarballs are
// what `npm publish` would upload. Shared by `pnpm lint:packages` and `pnpm test:pack`
// (docs/architecture.md, "Publishing").
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

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

/** Where `pnpm pack:all` puts the tarballs (gitignored): the release workflow publishes these. */
export const PACKED_DIR = path.join(repoRoot, 'packed');

/**
 * `node tooling/scripts/pack-workspace.mjs [--build] [--out <dir>]` (`pnpm pack:all`): builds
 * every package when `--build` is given (`turbo run build`), then packs every publishable one into
 * `<dir>` (default `packed/`), replacing earlier tarballs, and writes `<dir>/packed.json`: each
 * package's name, version and tarball. The one build-and-pack step of `pnpm test:pack` and of the
 * release workflow (.github/workflows/release.yml), so what is tested is what is published.
 */
async function cli(argv) {
  const outIndex = argv.indexOf('--out');
  const out = outIndex === -1 ? PACKED_DIR : path.resolve(argv[outIndex + 1] ?? '');
  if (outIndex !== -1 && argv[outIndex + 1] === undefined) {
    console.error('pack-workspace: --out needs a directory');
    process.exit(2);
  }
  if (argv.includes('--build')) {
    pnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only'], { cwd: repoRoot, stdio: 'inherit' });
  }
  mkdirSync(out, { recursive: true });
  for (const file of readdirSync(out)) {
    if (file.endsWith('.tgz') || file === 'packed.json') rmSync(path.join(out, file), { force: true });
  }
  const packed = packAll(out).map(({ name, manifest, tarball }) => ({
    name,
    version: manifest.version,
    tarball: path.basename(tarball),
  }));
  writeFileSync(path.join(out, 'packed.json'), `${JSON.stringify(packed, null, 2)}\n`);
  for (const { name, version, tarball } of packed) console.log(`packed ${name}@${version}: ${tarball}`);
  console.log(`${packed.length} packages in ${out}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await cli(process.argv.slice(2));
}
