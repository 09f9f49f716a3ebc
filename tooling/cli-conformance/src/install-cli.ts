import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { PinnedCli } from './pinned-clis';

/** How long one `npm install` may take before it is stopped and the CLI reported uninstallable. */
export const INSTALL_TIMEOUT_MS = 5 * 60_000;

/** Where the installs are kept, outside the workspace: `BULLSWARM_CLI_CACHE_DIR`, else `${XDG_CACHE_HOME:-~/.cache}/bullswarm/clis`. */
export function cliCacheRoot(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const explicit = env.BULLSWARM_CLI_CACHE_DIR;
  if (explicit !== undefined && explicit !== '') return explicit;
  const xdg = env.XDG_CACHE_HOME;
  return join(
    xdg !== undefined && xdg !== '' ? xdg : join(env.HOME || homedir(), '.cache'),
    'bullswarm',
    'clis',
  );
}

/** An installed CLI. */
export interface InstalledCli {
  readonly cli: PinnedCli;
  /** The install folder, `<cache>/<package>@<version>` (`/` of a scope as `+`). */
  readonly dir: string;
  /** The absolute path of its bin (what `pools add --command` gets). */
  readonly binPath: string;
  /** It was installed by this run (not found in the cache). */
  readonly fresh: boolean;
}

/** The marker written last into a finished install: a folder without it is never used. */
const MARKER = 'bullswarm-installed.json';

/**
 * Installs `cli` from the npm registry into its cache folder, or reuses an install already there.
 * The install goes to a temporary sibling folder first and is renamed into place only once the
 * bin exists, so an interrupted install is never taken for one (a concurrent one that finished
 * first wins). Never a workspace dependency: the folder has its own package.json.
 *
 * @throws Error naming the package, the folder and npm's last lines when it cannot be installed
 */
export async function installCli(cli: PinnedCli, root = cliCacheRoot()): Promise<InstalledCli> {
  const dir = join(root, `${cli.npmPackage.replace('/', '+')}@${cli.version}`);
  const binPath = join(dir, 'node_modules', '.bin', cli.bin);
  if (existsSync(join(dir, MARKER)) && existsSync(binPath)) return { cli, dir, binPath, fresh: false };
  mkdirSync(root, { recursive: true });
  const staging = `${dir}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
  mkdirSync(staging);
  try {
    writeFileSync(join(staging, 'package.json'), '{ "private": true }\n');
    mkdirSync(join(staging, '.tmp'));
    const spec = `${cli.npmPackage}@${cli.version}`;
    const npm = await execa('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', spec], {
      cwd: staging,
      reject: false,
      all: true,
      timeout: INSTALL_TIMEOUT_MS,
      stdin: 'ignore',
      // What npm and the packages' install scripts leave in their temp folder goes with the staging.
      env: { TMPDIR: join(staging, '.tmp'), TMP: join(staging, '.tmp'), TEMP: join(staging, '.tmp') },
    });
    const stagedBin = join(staging, 'node_modules', '.bin', cli.bin);
    if (npm.exitCode !== 0 || !existsSync(stagedBin)) {
      const why = npm.timedOut
        ? `npm install did not finish within ${INSTALL_TIMEOUT_MS / 60_000} minutes`
        : npm.exitCode !== 0
          ? `npm install exited ${npm.exitCode ?? npm.signal}`
          : `npm install left no ${cli.bin} in node_modules/.bin`;
      const tail = String(npm.all ?? '')
        .trim()
        .split('\n')
        .slice(-8)
        .join('\n');
      throw new Error(`could not install ${spec} into ${dir}: ${why}${tail === '' ? '' : `\n${tail}`}`);
    }
    rmSync(join(staging, '.tmp'), { recursive: true, force: true });
    writeFileSync(
      join(staging, MARKER),
      `${JSON.stringify({ package: cli.npmPackage, version: cli.version, installedAt: new Date().toISOString() })}\n`,
    );
    if (existsSync(join(dir, MARKER))) return { cli, dir, binPath, fresh: false };
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    return { cli, dir, binPath, fresh: true };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The version an install's package.json names (what npm put there). */
export function installedVersion(installed: InstalledCli): string {
  const pkg = JSON.parse(
    readFileSync(
      join(installed.dir, 'node_modules', ...installed.cli.npmPackage.split('/'), 'package.json'),
      'utf8',
    ),
  ) as { version: string };
  return pkg.version;
}
