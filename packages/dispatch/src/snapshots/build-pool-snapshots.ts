import {
  type ConnectorV1,
  type ConnectorV1MeterSource,
  DEFAULT_ACCOUNT,
  poolCredentialGroup,
} from '@bullswarm/connectors';
import { applySubscriptionOverride, type PoolMeterRequest } from '@bullswarm/meters';
import {
  computeSpendRate,
  type InflightRecord,
  LANES,
  type PoolMeter,
  type PoolSnapshot,
  type RunSample,
  type SpendRates,
  type TierModel,
  type WindowKind,
} from '@bullswarm/pacing';
import { activeReserves, isFreeModelName } from '@bullswarm/pacing/internal';
import type { InflightEntry, StatePool } from '@bullswarm/store';
import type { BullswarmRuntime } from '../runtime/open-runtime';
import { modelReachesCli } from './model-reaches-cli';
import { findPoolCli, type PoolCli } from './pool-cli';

/** The built-in effort tiers; connectors and pools may name more. */
export const BUILTIN_TIERS = ['low', 'medium', 'high'] as const;

/** How far back recorded runs and retained readings feed estimates and spend rates. */
export const HISTORY_WINDOW_MS = 14 * 86_400_000;
/** Recorded runs per pool considered for duration estimates and stall thresholds. */
export const RUNS_PER_POOL = 200;

/** What dispatch knows about a pool beyond its routing snapshot. */
export interface PoolDetail {
  readonly pool: StatePool;
  /** The connector that drives the pool; undefined when it is not installed. */
  readonly connector: ConnectorV1 | undefined;
  /** The account name (`default` for the connector's own login). */
  readonly account: string;
  /** The environment that selects the account: the connector's account env, then the pool's `env`. */
  readonly accountEnv: Readonly<Record<string, string>>;
  /** Where the meter is read from (the pool's override, else the connector's for this account). */
  readonly meterSource: ConnectorV1MeterSource | undefined;
  /**
   * Why the pool cannot run anything now, independent of meters: its connector is not installed,
   * or its CLI is not there (`codex not on PATH`).
   */
  readonly problem?: string;
  /** The CLI the pool runs and where it was found; undefined when the connector does not say. */
  readonly cli?: PoolCli;
  /** In-flight ledger entries of the pool. */
  readonly inflight: readonly InflightEntry[];
}

/** Snapshots of every pool at one instant, with their details. */
export interface PoolSnapshots {
  readonly now: number;
  readonly pools: readonly PoolSnapshot[];
  readonly details: ReadonlyMap<string, PoolDetail>;
}

/** Options of {@link buildPoolSnapshots}. */
export interface BuildPoolSnapshotsOptions {
  /** Read every meter from its source now (skip the cache). */
  readonly forceMeters?: boolean;
  /** Only these pools (ids); default every pool in state.json. */
  readonly poolIds?: readonly string[];
}

/**
 * Builds the routing snapshot of every pool: the connector's lanes, capabilities and models laid
 * under the pool's own settings, its meter (through the meter service's cache, with the pool's
 * subscription override applied), spend rates measured from retained readings and recorded
 * worker-minutes, the in-flight records of every bullswarm process on the machine (the shared
 * ledger, dead processes reaped), and recorded runs.
 *
 * Models per tier: a tier the pool's `models` names (a model, or `null` for none) wins; otherwise
 * the connector's default profile for the tier; otherwise the tier has no model on the pool. A model
 * is free when the connector's profile for it says `free: true` or its name has a standalone
 * `free` segment. A named model is `explicit` when it reaches the CLI (the connector passes it, e.g.
 * `--model`; see {@link modelReachesCli}): a free explicit model is probed before dispatch, a rung on
 * a CLI that takes no model runs the CLI's own default and is never probed.
 */
export async function buildPoolSnapshots(
  runtime: BullswarmRuntime,
  options: BuildPoolSnapshotsOptions = {},
): Promise<PoolSnapshots> {
  const now = runtime.clock();
  const statePools = runtime.state.pools.filter(
    (pool) => options.poolIds === undefined || options.poolIds.includes(pool.id),
  );
  if (statePools.length === 0) return { now, pools: [], details: new Map() };

  const store = await runtime.requireStore();
  const meters = await runtime.requireMeters();
  const ledger = await store.ledger.list();
  const since = now - HISTORY_WINDOW_MS;

  const details = new Map<string, PoolDetail>();
  const requests: PoolMeterRequest[] = [];
  for (const pool of statePools) {
    const detail = describePool(runtime, pool, ledger);
    details.set(pool.id, detail);
    requests.push(poolMeterRequest(runtime, detail, options.forceMeters === true));
  }
  const readMeters = await meters.readAll(requests);

  // Each pool's history is read at once (Postgres: over the pool's connections; SQLite in turn).
  const pools = await Promise.all(
    statePools.map(async (pool): Promise<PoolSnapshot> => {
      const detail = details.get(pool.id)!;
      const connector = detail.connector;
      let meter: PoolMeter = readMeters.get(pool.id) ?? { status: 'unmetered', windows: [] };
      const pacingWindow = pool.subscription?.quotaWindow ?? connector?.pacingWindow ?? 'weekly';
      if (pool.subscription) {
        meter = applySubscriptionOverride(
          meter,
          {
            quotaWindow: pool.subscription.quotaWindow,
            ...(pool.subscription.resetsAt === undefined ? {} : { resetsAt: pool.subscription.resetsAt }),
          },
          now,
        );
      }
      const runs = await store.runs.list({ poolId: pool.id, since, limit: RUNS_PER_POOL });
      const inflight = detail.inflight.map(inflightRecord);
      const workerIntervals = [
        ...runs.map((run) => ({ start: run.startedAt, end: run.endedAt })),
        ...detail.inflight.map((entry) => ({ start: entry.startedAt, end: now })),
      ];
      const spendRates: { -readonly [K in WindowKind]?: number } = {};
      for (const kind of new Set<WindowKind>(['five_hour', pacingWindow])) {
        const readings = await store.meters.listReadings(pool.id, { window: kind, since });
        if (readings.length < 2) continue;
        const rate = computeSpendRate({
          readings: readings.map((row) => ({
            readAt: row.readAt,
            usedPct: row.usedPct,
            // Providers report resets with sub-second jitter between polls (Claude's endpoint prints
            // microseconds); a whole-minute reset is the same window.
            ...(row.resetsAt === undefined ? {} : { resetsAt: Math.round(row.resetsAt / 60_000) * 60_000 }),
          })),
          workerIntervals,
        });
        if (rate) spendRates[kind] = rate.ratePerMinute;
      }

      return {
        id: pool.id,
        label: runtime.label(pool.id),
        connectorId: pool.connector,
        providerFamily: connector?.providerFamily ?? pool.connector,
        credentialGroup: connector
          ? poolCredentialGroup(connector, detail.account)
          : `${pool.connector}:${detail.account}`,
        enabled: pool.enabled,
        // A pool whose connector is missing is described as able to run anything, so that the
        // exclusion routeTask adds for it is what the reason line names (not "no lane analyze").
        lanes: pool.lanes ?? connector?.lanes ?? LANES,
        capabilities: pool.capabilities ?? connector?.capabilities ?? [],
        ...(connector ? { cost: connector.cost } : {}),
        models: connector ? tierModels(pool, connector) : unknownConnectorModels(pool),
        pacingWindow,
        hasFiveHourWindow: connector?.hasFiveHourWindow ?? false,
        meter,
        spendRates: spendRates as SpendRates,
        ...(pool.reserves === undefined ? {} : { reserves: activeReserves(pool.reserves) }),
        inflight,
        runs: runs.map(
          (run): RunSample => ({
            poolId: run.poolId,
            tier: run.tier,
            startedAt: run.startedAt,
            endedAt: run.endedAt,
            stalled: run.stalled,
            outcome: run.outcome,
          }),
        ),
      };
    }),
  );
  return { now, pools, details };
}

/** A ledger entry as routing charges it. */
function inflightRecord(entry: InflightEntry): InflightRecord {
  return {
    id: entry.id,
    startedAt: entry.startedAt,
    ...(entry.expectedMinutes === undefined ? {} : { expectedMinutes: entry.expectedMinutes }),
    ...(entry.tier === undefined ? {} : { tier: entry.tier }),
    action: entry.action,
  };
}

/**
 * The same snapshots with every pool's in-flight records (and details) replaced by `ledger`, the
 * ledger as read now: dispatch re-reads it inside the write transaction that records its pick, so
 * a pick never misses another process's entry written after the snapshots were built. Meters,
 * runs and spend rates stay as built.
 */
export function withLedger(snapshots: PoolSnapshots, ledger: readonly InflightEntry[]): PoolSnapshots {
  const details = new Map<string, PoolDetail>();
  for (const [id, detail] of snapshots.details) {
    details.set(id, { ...detail, inflight: ledger.filter((entry) => entry.poolId === id) });
  }
  return {
    now: snapshots.now,
    pools: snapshots.pools.map((pool) => ({
      ...pool,
      inflight: (details.get(pool.id)?.inflight ?? []).map(inflightRecord),
    })),
    details,
  };
}

/** How a pool's meter is read through the meter service; `force` skips the cache. */
export function poolMeterRequest(
  runtime: BullswarmRuntime,
  detail: Pick<PoolDetail, 'pool' | 'meterSource' | 'accountEnv'>,
  force: boolean,
): PoolMeterRequest {
  return {
    poolId: detail.pool.id,
    source: detail.meterSource,
    accountEnv: detail.accountEnv,
    home: runtime.home.home,
    ...(force ? { force: true } : {}),
    ...(runtime.state.config.meterTtlSec === undefined
      ? {}
      : { meterTtlSec: runtime.state.config.meterTtlSec }),
  };
}

/**
 * What dispatch knows about each pool of the home without reading a meter or the ledger (its
 * `inflight` is empty): enough to tell which pool is the caller before anything is opened.
 */
export function describePools(runtime: BullswarmRuntime): Map<string, PoolDetail> {
  return new Map(runtime.state.pools.map((pool) => [pool.id, describePool(runtime, pool, [])]));
}

function describePool(
  runtime: BullswarmRuntime,
  pool: StatePool,
  ledger: readonly InflightEntry[],
): PoolDetail {
  const connector = runtime.connectors.get(pool.connector);
  const account = pool.account ?? DEFAULT_ACCOUNT;
  const inflight = ledger.filter((entry) => entry.poolId === pool.id);
  if (!connector) {
    return {
      pool,
      connector: undefined,
      account,
      accountEnv: pool.env ?? {},
      meterSource: pool.meter,
      problem: `connector ${pool.connector} is not installed`,
      inflight,
    };
  }
  const accountEnv = {
    ...connector.accountEnv({ account, bullswarmHome: runtime.home.home, userHome: runtime.userHome }),
    ...(pool.env ?? {}),
  };
  const meterSource = pool.meter ?? connector.experimental_meterForAccount?.(account) ?? connector.meter;
  const cli = findPoolCli(connector, pool, accountEnv, runtime.env);
  return {
    pool,
    connector,
    account,
    accountEnv,
    meterSource,
    ...(cli?.problem === undefined ? {} : { problem: cli.problem }),
    ...(cli === undefined ? {} : { cli }),
    inflight,
  };
}

/** The model per tier of a pool whose connector is installed (see {@link buildPoolSnapshots}). */
function tierModels(
  pool: Pick<StatePool, 'models'>,
  connector: ConnectorV1,
): Record<string, TierModel | null> {
  const tiers = new Set<string>([
    ...BUILTIN_TIERS,
    ...Object.keys(connector.modelProfiles),
    ...Object.keys(pool.models),
  ]);
  const models: Record<string, TierModel | null> = {};
  for (const tier of tiers) {
    const profiles = connector.modelProfiles[tier] ?? [];
    let model: string | null | undefined;
    if (Object.hasOwn(pool.models, tier)) model = pool.models[tier];
    else model = (profiles.find((p) => p.default) ?? profiles[0])?.model;
    if (model === null || model === undefined) {
      models[tier] = null;
      continue;
    }
    const profileFree = Object.values(connector.modelProfiles).some((list) =>
      list.some((p) => p.model === model && p.free),
    );
    models[tier] = {
      model,
      free: profileFree || isFreeModelName(model),
      explicit: modelReachesCli(connector),
    };
  }
  return models;
}

/** The model per tier of a pool whose connector is not installed: nothing is known to be free. */
function unknownConnectorModels(pool: Pick<StatePool, 'models'>): Record<string, TierModel | null> {
  const models: Record<string, TierModel | null> = {};
  for (const tier of new Set([...BUILTIN_TIERS, ...Object.keys(pool.models)])) {
    const model = pool.models[tier];
    models[tier] =
      model === null ? null : { ...(model === undefined ? {} : { model }), free: false, explicit: false };
  }
  return models;
}
