import { isAscii } from 'node:buffer';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';
import { writeFileAtomic } from '@bullswarm/connectors/internal';
import { lazyBuiltinRequire } from './lazy-require';

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
   * (temp file, fsync, rename), best effort: a failure (read-only disk) is ignored.
   */
  saveCache(): void;
}

const PREFIX = 'bullswarm-';

/**
 * The module wrapper: CommonJS's parameters, and `__bullswarmImport`, an `import()` that runs here,
 * outside the compiled script. Node 20 loses a script's dynamic-import callback when the script
 * comes from a code cache ("A dynamic import callback was not specified"), so the bundle's only
 * real `import()` (a configured connector package) calls this instead (see tsup.config.ts).
 *
 * A bundle built already wrapped (the build adds the head as banner, the tail as footer) is
 * compiled as it is; any other is wrapped here, which copies the megabytes of its source first.
 */
export const MODULE_WRAPPER = {
  head: '(function (exports, require, module, __filename, __dirname, __bullswarmImport) {',
  tail: '\n})',
} as const;

/** The bundle's `import()` (see {@link MODULE_WRAPPER}). */
const importModule = (specifier: string): Promise<unknown> => import(specifier);

/**
 * Loads a CommonJS bundle the way `require` would, through a V8 code cache. Its `require` defers
 * a few built-ins to their first use (`LAZY_BUILTINS` in lazy-require.ts).
 *
 * Node 20 has no module compile cache (`module.enableCompileCache` is Node 22), and compiling the
 * CLI's ~2 MB of bundled JavaScript is most of a command's startup. The code cache makes a warm
 * start skip it. The cache file is keyed by the bundle's version, size and mtime and by the Node
 * version and architecture; V8 checks it against the source and flags itself and rejects a cache
 * that does not fit, which is then rewritten. When one is written, the cache files of other
 * builds of the same bundle file are removed (those of another bundle file are kept).
 */
export function loadBundle(bundlePath: string, options: LoadBundleOptions): LoadedBundle {
  const source = readSource(bundlePath);
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
  const wrapped = source.startsWith(MODULE_WRAPPER.head)
    ? source
    : `${MODULE_WRAPPER.head}${source}${MODULE_WRAPPER.tail}`;
  const script = new vm.Script(wrapped, {
    filename: bundlePath,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
    importModule: (specifier: string) => Promise<unknown>,
  ) => void;
  const module = { exports: {} as Record<string, unknown> };
  wrapper.call(
    module.exports,
    module.exports,
    lazyBuiltinRequire(createRequire(bundlePath)),
    module,
    bundlePath,
    dirname(bundlePath),
    importModule,
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
        writeFileAtomic(cacheFile, script.createCachedData());
        pruneCaches(directory, cacheFile, basename(bundlePath));
      } catch {
        // No cache this time (read-only or full disk); the next start compiles again.
      }
    },
  };
}

/**
 * The bundle's text. An ASCII file (checked fast, natively) is decoded as Latin-1, which is a copy
 * into a one-byte string; UTF-8 decoding of the same megabytes costs milliseconds more.
 */
function readSource(path: string): string {
  const bytes = readFileSync(path);
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/**
 * Removes the cache files of other builds of this bundle (another version, Node or bundle file)
 * and, of this build's, all but the {@link MAX_CACHE_FILES} most recently written. Caches of other
 * bundles (another file name) are left alone.
 */
function pruneCaches(directory: string, current: string, bundleName: string): void {
  const build = basename(current).replace(/\.[^.]+\.v8$/, '.');
  const bundle = `${PREFIX}${bundleName}-`;
  const ours: { path: string; mtimeMs: number }[] = [];
  for (const name of readdirSync(directory)) {
    if (!name.startsWith(bundle) || name.endsWith('.tmp')) continue;
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
