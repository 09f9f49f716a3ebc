import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

/** Options of {@link loadBundle}. */
export interface LoadBundleOptions {
  /** Where V8 code caches are kept; undefined turns the cache off. */
  readonly cacheDir: string | undefined;
  /** Part of the cache file name, so another version never reads this one's cache. */
  readonly version: string;
  /**
   * Which code cache to use, e.g. the command name: a cache holds the functions the run that
   * wrote it compiled, so each command warms its own. Letters, digits and `-`; others are dropped.
   */
  readonly variant?: string;
}

/** Cache files kept per bundle build (one per variant); the least recently written go first. */
export const MAX_CACHE_FILES = 16;

/** A loaded CommonJS bundle. */
export interface LoadedBundle {
  /** `module.exports` of the bundle. */
  readonly exports: Record<string, unknown>;
  /** The cache file this bundle's code cache is read from and written to (undefined when off). */
  readonly cacheFile: string | undefined;
  /** V8 accepted a code cache, so nothing was compiled from source. */
  readonly cacheUsed: boolean;
  /**
   * Writes the code cache when there was none or V8 rejected it. Call it after the command ran:
   * the cache then holds every function the command compiled, not only the top level. Atomic
   * (temp file + rename), best effort: a failure (read-only disk) is ignored.
   */
  saveCache(): void;
}

const PREFIX = 'bullswarm-';

/**
 * Loads a CommonJS bundle the way `require` would, through a V8 code cache.
 *
 * Node 20 has no module compile cache (`module.enableCompileCache` is Node 22), and compiling the
 * CLI's ~2 MB of bundled JavaScript is most of a command's startup. The code cache makes a warm
 * start skip it. The cache file is keyed by the bundle's version, size and mtime and by the Node
 * version and architecture; V8 checks it against the source and flags itself and rejects a cache
 * that does not fit, which is then rewritten. Cache files of other bundles are removed when one
 * is written.
 */
export function loadBundle(bundlePath: string, options: LoadBundleOptions): LoadedBundle {
  const source = readFileSync(bundlePath, 'utf8');
  let cacheFile: string | undefined;
  if (options.cacheDir !== undefined) {
    const stat = statSync(bundlePath);
    const key = [options.version, process.version, process.arch, stat.size, Math.trunc(stat.mtimeMs)].join(
      '-',
    );
    const variant = (options.variant ?? 'default').replace(/[^A-Za-z0-9-]/g, '').slice(0, 32) || 'default';
    cacheFile = join(options.cacheDir, `${PREFIX}${basename(bundlePath)}-${key}.${variant}.v8`);
  }
  let cachedData: Buffer | undefined;
  if (cacheFile !== undefined) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundlePath,
    ...(cachedData === undefined ? {} : { cachedData }),
    // A dynamic import() in the bundle (a third-party connector package) uses Node's own loader.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
  ) => void;
  const module = { exports: {} as Record<string, unknown> };
  wrapper.call(
    module.exports,
    module.exports,
    createRequire(bundlePath),
    module,
    bundlePath,
    dirname(bundlePath),
  );
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  return {
    exports: module.exports,
    cacheFile,
    cacheUsed,
    saveCache() {
      if (cacheFile === undefined || cacheUsed) return;
      try {
        const directory = dirname(cacheFile);
        mkdirSync(directory, { recursive: true, mode: 0o700 });
        const temp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
        pruneCaches(directory, cacheFile);
      } catch {
        // No cache this time (read-only or full disk); the next start compiles again.
      }
    },
  };
}

/**
 * Removes cache files of other builds (another version, Node or bundle) and, of this build's, all
 * but the {@link MAX_CACHE_FILES} most recently written.
 */
function pruneCaches(directory: string, current: string): void {
  const build = basename(current).replace(/\.[^.]+\.v8$/, '.');
  const ours: { path: string; mtimeMs: number }[] = [];
  for (const name of readdirSync(directory)) {
    if (!name.startsWith(PREFIX) || name.endsWith('.tmp')) continue;
    const path = join(directory, name);
    if (!name.startsWith(build)) {
      rmSync(path, { force: true });
      continue;
    }
    try {
      ours.push({ path, mtimeMs: statSync(path).mtimeMs });
    } catch {
      // Removed by another process meanwhile.
    }
  }
  ours.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const stale of ours.slice(MAX_CACHE_FILES)) rmSync(stale.path, { force: true });
}

/**
 * Where the code cache lives: `$BULLSWARM_CACHE_DIR`, else `$XDG_CACHE_HOME/bullswarm`, else
 * `~/.cache/bullswarm`. `BULLSWARM_COMPILE_CACHE=0` turns it off.
 */
export function compileCacheDir(
  env: Readonly<Record<string, string | undefined>>,
  userHome: string,
): string | undefined {
  if (env.BULLSWARM_COMPILE_CACHE === '0') return undefined;
  if (env.BULLSWARM_CACHE_DIR) return env.BULLSWARM_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'bullswarm');
  return join(userHome, '.cache', 'bullswarm');
}
