import { homedir } from 'node:os';
import { type ConnectorV1, type LoadedConnectors, loadConnectors } from '@bullswarm/connectors';
import { createMeterService, type MeterService } from '@bullswarm/meters';
import {
  type BullswarmHome,
  createClock,
  type EmbeddedBullswarmStore,
  findLabelConflicts,
  type LabelConflict,
  openHome,
  type PoolLabelsFile,
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
   * Open the SQLite store even when the home has no database yet (commands that write: run,
   * pools add). Read-only commands leave it false and see an empty ledger instead of creating files.
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
  /** The store; undefined when the home has no database yet and `createStore` was false. */
  readonly store: EmbeddedBullswarmStore | undefined;
  /** The store, created on first use (for commands that record work). */
  requireStore(): EmbeddedBullswarmStore;
  /** The meter service; undefined without a store (meters are then read but not cached). */
  readonly meters: MeterService | undefined;
  /** The meter service over the store, created on first use. */
  requireMeters(): MeterService;
  /** The label a person sees for a pool (its id when it has none). */
  label(poolId: string): string;
  close(): void;
}

/**
 * Opens the runtime of one command. Reads state.json and pool-labels.json (a corrupt file throws
 * `ConfigFileError` naming the file and field), loads every connector (built-in, home, configured),
 * and opens the store when it exists (or always with `createStore`).
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

  let store: EmbeddedBullswarmStore | undefined = options.createStore
    ? home.openStore()
    : home.openStoreIfExists();
  let meters: MeterService | undefined;
  const ttlSec = state.config.meterTtlSec;
  const meterTtlMs = options.meterTtlMs ?? (ttlSec === undefined ? undefined : ttlSec * 1000);
  const makeMeters = (s: EmbeddedBullswarmStore) =>
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
    requireStore() {
      if (!store) {
        store = home.openStore();
        meters = makeMeters(store);
      }
      return store;
    },
    get meters() {
      return meters;
    },
    requireMeters() {
      runtime.requireStore();
      return meters!;
    },
    label(poolId) {
      return labels.labels[poolId] ?? poolId;
    },
    close() {
      store?.close();
      store = undefined;
      meters = undefined;
    },
  };
  return runtime;
}
