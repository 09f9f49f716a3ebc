import { homedir } from 'node:os';
import { type ConnectorV1, type LoadedConnectors, loadConnectors } from '@bullswarm/connectors';
import { createMeterService, type MeterService } from '@bullswarm/meters';
import {
  type AsyncBullswarmStore,
  type BullswarmHome,
  createClock,
  findLabelConflicts,
  type LabelConflict,
  type OpenAsyncStoreOptions,
  openAsyncStore,
  openAsyncStoreIfExists,
  openHome,
  type PoolLabelsFile,
  resolveHostId,
  resolveStoreTarget,
  type StateFile,
  usableLabels,
} from '@bullswarm/store';

/** Options of {@link openRuntime}. */
export interface OpenRuntimeOptions {
  /** The state home; default `$BULLSWARM_HOME`, else `~/.bullswarm`. */
  readonly home?: string;
  /** The environment bullswarm runs in (caller detection, `BULLSWARM_NOW`, account env base); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The clock (epoch ms); default `createClock(env)`, which honours `BULLSWARM_NOW`. */
  readonly clock?: () => number;
  /**
   * Where hand-written `config.connectors` entries (a bare package name, a relative path) resolve from;
   * default the current directory. Entries stored by `bullswarm connectors add` are absolute.
   */
  readonly projectDir?: string;
  /** Overrides the built-in providers directory (tests). */
  readonly builtinProvidersDirectory?: string;
  /** Meter cache TTL in ms (default: the meter service's, 120 s). */
  readonly meterTtlMs?: number;
  /** The user's home directory (`{{userHome}}`); default `os.homedir()`. */
  readonly userHome?: string;
  /**
   * Open the store even when the home has none yet (commands that write: run, pools add): the
   * SQLite file, or the tables in a Postgres database. Read-only commands leave it false and see
   * an empty ledger instead of creating anything.
   */
  readonly createStore?: boolean;
}

/**
 * Everything a bullswarm command works with: the home and its config files, the store, the
 * connectors, the meter service and the clock. Open one per command; `close()` it at the end.
 */
export interface BullswarmRuntime {
  readonly home: BullswarmHome;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: () => number;
  readonly userHome: string;
  /** state.json as read when the runtime opened (re-read with `home.readState()` after an update). */
  readonly state: StateFile;
  /**
   * The labels in effect: pool-labels.json without a label equal to another configured pool's id
   * (a hand edit; see {@link labelConflicts}), so such a label never names or shows a pool.
   */
  readonly labels: PoolLabelsFile;
  /**
   * Labels of pool-labels.json ignored because they equal another configured pool's id. They never
   * stop a command; the CLI names each on stderr (its `labelConflictWarning`).
   */
  readonly labelConflicts: readonly LabelConflict[];
  readonly connectors: ReadonlyMap<string, ConnectorV1>;
  /** Connector load errors and override warnings (a malformed manifest never stops the others). */
  readonly connectorLoad: Pick<LoadedConnectors, 'errors' | 'warnings' | 'sources'>;
  /**
   * The store (asynchronous, either engine: the home's SQLite file, or the shared Postgres of
   * `BULLSWARM_STORE_URL` / `config.storeUrl`); undefined when there is none yet and `createStore`
   * was false.
   */
  readonly store: AsyncBullswarmStore | undefined;
  /** The store, created on first use (for commands that record work). */
  requireStore(): Promise<AsyncBullswarmStore>;
  /** The meter service; undefined without a store (meters are then read but not cached). */
  readonly meters: MeterService | undefined;
  /** The meter service over the store, created on first use. */
  requireMeters(): Promise<MeterService>;
  /** The label a person sees for a pool (its id when it has none). */
  label(poolId: string): string;
  /** Closes the store (its heartbeat, the Postgres pool); idempotent. */
  close(): Promise<void>;
}

/**
 * Opens the runtime of one command. Reads state.json and pool-labels.json (a corrupt file throws
 * `ConfigFileError` naming the file and field), loads every connector (built-in, home, configured),
 * and opens the store when it exists (or always with `createStore`): `BULLSWARM_STORE_URL`, else
 * `config.storeUrl`, else the home's `bullswarm.db` — never the file when a URL is configured (a
 * Postgres server that cannot be reached is a `StoreUnavailableError`, exit 1).
 */
export async function openRuntime(options: OpenRuntimeOptions = {}): Promise<BullswarmRuntime> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? createClock(env);
  const home = openHome({ ...(options.home === undefined ? {} : { home: options.home }), env });
  const state = home.readState();
  const fileLabels = home.readLabels();
  // A label equal to another pool's id (docs/routing.md, pool labels) is ignored, never fatal.
  const labelConflicts = findLabelConflicts(fileLabels, state);
  const labels = usableLabels(fileLabels, state);
  const userHome = options.userHome ?? homedir();
  const loaded = await loadConnectors({
    home: home.home,
    ...(state.config.connectors.length > 0
      ? { configEntries: state.config.connectors, projectDir: options.projectDir ?? process.cwd() }
      : {}),
    ...(options.builtinProvidersDirectory === undefined
      ? {}
      : { builtinDirectory: options.builtinProvidersDirectory }),
  });

  const storeUrl = state.config.storeUrl;
  const target = resolveStoreTarget({
    env,
    dbPath: home.dbPath,
    ...(storeUrl === undefined ? {} : { configUrl: storeUrl }),
  });
  // The host id is kept in the home (`host-id`) only for a shared store: a SQLite home is one
  // machine's, and gains no file (its entries are judged by pid and start time either way).
  const storeOptions = (create: boolean): OpenAsyncStoreOptions => ({
    target,
    hostId: resolveHostId({ home: home.home, env, create: create && target.engine === 'postgres' }),
    env,
  });
  let store: AsyncBullswarmStore | undefined = options.createStore
    ? await openAsyncStore(storeOptions(true))
    : await openAsyncStoreIfExists(storeOptions(false));
  let opening: Promise<AsyncBullswarmStore> | undefined;
  let meters: MeterService | undefined;
  const ttlSec = state.config.meterTtlSec;
  const meterTtlMs = options.meterTtlMs ?? (ttlSec === undefined ? undefined : ttlSec * 1000);
  const makeMeters = (s: AsyncBullswarmStore) =>
    createMeterService({
      store: s,
      clock,
      env,
      userHome,
      ...(meterTtlMs === undefined ? {} : { ttlMs: meterTtlMs }),
    });
  if (store) meters = makeMeters(store);

  const runtime: BullswarmRuntime = {
    home,
    env,
    clock,
    userHome,
    state,
    labels,
    labelConflicts,
    connectors: loaded.connectors,
    connectorLoad: { errors: loaded.errors, warnings: loaded.warnings, sources: loaded.sources },
    get store() {
      return store;
    },
    async requireStore() {
      if (store) return store;
      // One open however many callers ask at once (a workflow's first units start together).
      opening ??= openAsyncStore(storeOptions(true)).then((opened) => {
        store = opened;
        meters = makeMeters(opened);
        return opened;
      });
      try {
        return await opening;
      } finally {
        opening = undefined;
      }
    },
    get meters() {
      return meters;
    },
    async requireMeters() {
      await runtime.requireStore();
      return meters!;
    },
    label(poolId) {
      return labels.labels[poolId] ?? poolId;
    },
    async close() {
      const open = store;
      store = undefined;
      meters = undefined;
      await open?.close();
    },
  };
  return runtime;
}
