import { existsSync, readFileSync, statSync } from 'node:fs';
import type { Mutator } from '../config/config-file';
import {
  clearLabel,
  listLabels,
  type PoolLabelRow,
  readLabels,
  resolvePoolRef,
  setLabel,
  updateLabels,
  usableLabels,
} from '../config/pool-labels';
import type { PoolLabelsFile } from '../config/pool-labels-schema';
import { readState, updateState } from '../config/state-file';
import { emptyState, type StateFile } from '../config/state-file-schema';
import { redactStoreUrl } from '../engine/store-url';
import { InvalidHomeError } from '../errors/invalid-home-error';
import { SharedStoreUnsupportedError } from '../errors/shared-store-unsupported-error';
import type { FileLockOptions } from '../files/file-lock';
import {
  type EmbeddedBullswarmStore,
  type OpenStoreOptions,
  openStore,
  openStoreIfExists,
} from '../sqlite/open-store';
import { type HomePaths, homePaths, resolveHome } from './home-paths';
import { homeStoreTarget } from './home-store-target';

/** Options of {@link openHome}. */
export interface OpenHomeOptions {
  /** The home directory; default {@link resolveHome}(`env`). */
  readonly home?: string;
  /** Environment to resolve the home from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Lock wait bound for config updates (default 10 000 ms). */
  readonly lockTimeoutMs?: number;
}

/** Store options a home fills in itself. */
export type HomeStoreOptions = Omit<OpenStoreOptions, 'dbPath'>;

/**
 * One bullswarm state home: its paths and everything read or written in it. Nothing is created
 * by opening it or by reads that find nothing; the directory (mode 0700) appears on the first write.
 */
export interface BullswarmHome extends HomePaths {
  /** Whether the home directory exists yet. */
  exists(): boolean;
  /** state.json (empty state when missing). @throws ConfigFileError */
  readState(): StateFile;
  /** Read-modify-write state.json under its lock; see `updateState`. */
  updateState(mutate: Mutator<StateFile>): StateFile;
  /** pool-labels.json (no labels when missing). @throws ConfigFileError */
  readLabels(): PoolLabelsFile;
  /** Read-modify-write pool-labels.json under its lock. */
  updateLabels(mutate: Mutator<PoolLabelsFile>): PoolLabelsFile;
  /** Set a pool's label (`ref` is its id or label). @throws UnknownPoolError, InvalidLabelError */
  setLabel(ref: string, label: string): { readonly poolId: string; readonly label: string };
  /** Remove a pool's label; returns whether one was removed. */
  clearLabel(ref: string): boolean;
  /** Every label, by pool id. */
  listLabels(): PoolLabelRow[];
  /**
   * A label or id typed by a user → the pool id (a label equal to another pool's id is ignored).
   * @throws UnknownPoolError
   */
  resolvePoolRef(ref: string): string;
  /** Open the SQLite store (creating the home and database when missing). */
  openStore(options?: HomeStoreOptions): EmbeddedBullswarmStore;
  /** Open the store only if its database exists (for read-only commands); creates nothing. */
  openStoreIfExists(options?: HomeStoreOptions): EmbeddedBullswarmStore | undefined;
}

/**
 * Refuses a home path that exists and is not a directory (a file given as `--home`), naming it;
 * a missing home is fine (it is created on the first write).
 * @throws InvalidHomeError
 */
function assertHomeIsDirectory(home: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(home).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') {
      throw new InvalidHomeError({ home, problem: 'is not a directory (a file is in its path)' });
    }
    return; // missing (created on the first write) or unreadable (the write that needs it says so)
  }
  if (!isDirectory) throw new InvalidHomeError({ home, problem: 'is not a directory' });
}

/**
 * The synchronous store is the local SQLite file only: when a Postgres store is configured, opening
 * it is refused (until the caller moves to `openHomeStore`), never a quiet fall-back to the file.
 * @throws SharedStoreUnsupportedError
 */
function refuseSharedStore(paths: HomePaths, env: OpenHomeOptions['env']): void {
  // Cheap first: the variable, then state.json only when it names the key (a start stays fast);
  // a state.json that does not validate is the caller's to report, not this check's.
  const readConfiguredState = (): StateFile => {
    let text: string;
    try {
      text = readFileSync(paths.statePath, 'utf8');
    } catch {
      return emptyState();
    }
    if (!text.includes('storeUrl')) return emptyState();
    try {
      return readState(paths);
    } catch {
      return emptyState();
    }
  };
  const target = homeStoreTarget(
    { dbPath: paths.dbPath, readState: readConfiguredState },
    env ?? process.env,
  );
  if (target.engine === 'postgres') {
    throw new SharedStoreUnsupportedError({
      source: target.source,
      location: redactStoreUrl(target.url),
      dbPath: paths.dbPath,
    });
  }
}

/**
 * Open the state home: `options.home`, else `$BULLSWARM_HOME`, else `~/.bullswarm`.
 *
 * @throws InvalidHomeError when that path exists and is not a directory.
 *
 * @example
 * ```ts
 * const home = openHome();
 * const poolId = home.resolvePoolRef('acme');
 * home.updateState((state) => {
 *   const pool = state.pools.find((p) => p.id === poolId);
 *   if (pool) pool.enabled = false;
 * });
 * ```
 */
export function openHome(options: OpenHomeOptions = {}): BullswarmHome {
  const paths = homePaths(options.home ?? resolveHome(options.env));
  assertHomeIsDirectory(paths.home);
  const lock: FileLockOptions =
    options.lockTimeoutMs === undefined ? {} : { timeoutMs: options.lockTimeoutMs };
  return {
    ...paths,
    exists: () => existsSync(paths.home),
    readState: () => readState(paths),
    updateState: (mutate) => updateState(paths, mutate, lock),
    readLabels: () => readLabels(paths),
    updateLabels: (mutate) => updateLabels(paths, mutate, lock),
    setLabel: (ref, label) => setLabel(paths, ref, label, lock),
    clearLabel: (ref) => clearLabel(paths, ref, lock),
    listLabels: () => listLabels(paths),
    resolvePoolRef: (ref) => {
      const state = readState(paths);
      return resolvePoolRef(ref, state, usableLabels(readLabels(paths), state));
    },
    openStore: (storeOptions = {}) => {
      refuseSharedStore(paths, options.env);
      return openStore({ ...storeOptions, dbPath: paths.dbPath });
    },
    openStoreIfExists: (storeOptions = {}) => {
      refuseSharedStore(paths, options.env);
      return openStoreIfExists({ ...storeOptions, dbPath: paths.dbPath });
    },
  };
}
