import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Locations inside the installed `@bullswarm/connectors` package, computed from this module's own
 * path (no PATH lookup, no cwd): the code runs from `src/` in the repo (tests) or from `dist/`
 * (built, published). Pure string work; nothing is read at import time.
 */
function packageLayout(): { packageRoot: string; runningFrom: 'src' | 'dist' } {
  const here = dirname(fileURLToPath(import.meta.url));
  const parts = here.split(sep);
  for (let index = parts.length - 1; index >= 0; index -= 1) {
    if (parts[index] === 'src' || parts[index] === 'dist') {
      return {
        packageRoot: parts.slice(0, index).join(sep) || sep,
        runningFrom: parts[index] as 'src' | 'dist',
      };
    }
  }
  return { packageRoot: dirname(here), runningFrom: 'dist' };
}

const layout = packageLayout();

/** The root directory of the connectors package (where its package.json is). */
export const PACKAGE_ROOT: string = layout.packageRoot;

/** Whether this code runs from TypeScript sources (`src`, tests) or the build (`dist`). */
export const RUNNING_FROM: 'src' | 'dist' = layout.runningFrom;

/** Absolute path of the built `bullswarm-sim` CLI (`dist/sim-cli.js`). */
export const SIM_CLI_PATH: string = join(PACKAGE_ROOT, 'dist', 'sim-cli.js');

/**
 * Directories that may hold the built-in `providers/<id>/connector.json`, most preferred first:
 * from sources, the repo's top-level `providers/`; from the build, the copy in `dist/providers/`
 * (made by the build; see tsup.config.ts). The first that exists is used.
 */
export const BUILTIN_PROVIDER_DIRECTORIES: readonly string[] =
  RUNNING_FROM === 'src'
    ? [join(PACKAGE_ROOT, '..', '..', 'providers'), join(PACKAGE_ROOT, 'dist', 'providers')]
    : [join(PACKAGE_ROOT, 'dist', 'providers'), join(PACKAGE_ROOT, '..', '..', 'providers')];
