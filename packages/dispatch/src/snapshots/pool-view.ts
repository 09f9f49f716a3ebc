import {
  computePace,
  type MeterStatus,
  type PoolSnapshot,
  type SpendRates,
  type WindowKind,
  type WindowReserves,
} from '@bullswarm/pacing';
import {
  activeReserves,
  buildCandidateRow,
  checkSpent,
  DEFAULT_INFLIGHT_PENALTY_PCT,
  effectiveWindow,
  findWindow,
  formatTime,
  isFreeTierModel,
  reserveOf,
} from '@bullswarm/pacing/internal';
import type { PoolDetail, PoolSnapshots } from './build-pool-snapshots';

/** The built-in effort tiers, in display order; other tiers follow sorted by name. */
const TIER_ORDER = ['low', 'medium', 'high'];

/** One window of a pool's meter, as `pools --json` prints it. */
export interface PoolViewWindow {
  readonly kind: WindowKind;
  readonly usedPct: number;
  /** ISO-8601, or null when the provider did not say. */
  readonly resetsAt: string | null;
  readonly windowMinutes: number;
}

/** The model of one tier on a pool. */
export interface PoolViewModel {
  /** The model name; null means the connector CLI's own default. */
  readonly model: string | null;
  readonly free: boolean;
}

/** A window at 100% that keeps the pool out until it resets. */
export interface PoolViewSpentWindow {
  readonly window: WindowKind;
  /** ISO-8601, or null when the reset is unknown. */
  readonly until: string | null;
}

/** A window inside the reserve the pool keeps on it: left out of routing until it resets. */
export interface PoolViewReservedWindow extends PoolViewSpentWindow {
  /** The reserve kept on the window, in points. */
  readonly reservePct: number;
}

/**
 * The state words of `bullswarm pools`, most binding first:
 * - `unavailable`: the pool's connector is not installed, or its CLI is not there (it cannot run
 *   anything: `codex not on PATH`);
 * - `disabled`: never a candidate;
 * - `burst-gated`: a 5-hour, weekly or monthly window at 100% until it resets;
 * - `reserved`: a window inside the reserve kept for the person (`pools reserve`), below 100%:
 *   routing leaves the pool out (a pin may still use it) until that window resets;
 * - `near-5h-limit`: the 5-hour reading is at or above 75% (a soft penalty, never a cutoff);
 * - `draining`: the pacing window's forecast is at 95% or more and ahead of its clock: routing
 *   ranks it last, whether or not the window also resets soon (it is then not `expiring-soon`);
 * - `expiring-soon`: the pacing window resets soon with quota left (ranked on urgency);
 * - `ready`: none of the above.
 */
export type PoolState =
  | 'unavailable'
  | 'disabled'
  | 'burst-gated'
  | 'reserved'
  | 'near-5h-limit'
  | 'draining'
  | 'expiring-soon'
  | 'ready';

/** Everything `bullswarm pools` shows about one pool (also its `--json` row). */
export interface PoolView {
  readonly id: string;
  readonly poolLabel: string;
  readonly connector: string;
  readonly account: string;
  readonly enabled: boolean;
  /** The pool's own agent CLI (`pools add --command`), run instead of the connector's; null when none. */
  readonly command: string | null;
  /** Relative cost 1–5 (display only); null when the connector is not installed. */
  readonly cost: number | null;
  readonly lanes: readonly string[];
  /** Per tier: the model and whether it is free; null when the tier has no model on this pool. */
  readonly models: Readonly<Record<string, PoolViewModel | null>>;
  readonly meter: {
    readonly status: MeterStatus;
    readonly windows: readonly PoolViewWindow[];
    readonly readAt: string | null;
  };
  /** The short status of the last failed poll (`bad meter reading`, `http 429`); null when none. */
  readonly meterError: string | null;
  /**
   * The meter reader's full message for `meterError`: the file or command and the field path
   * (`…/meter.json is not a valid bullswarm meter reading: windows[0].resetsAt: …`), credentials
   * redacted. Null when there is no error (or the hold predates the detail).
   */
  readonly meterErrorDetail: string | null;
  readonly meterHoldUntil: string | null;
  readonly pacingWindow: 'weekly' | 'monthly';
  /**
   * Surplus: elapsed% − used% of the pacing window, the used share read against the usable part
   * when a reserve is kept (`used × 100 / (100 − reserve)`); null when unknown (shown `-`).
   */
  readonly pace: number | null;
  readonly usedPct: number | null;
  readonly elapsedPct: number | null;
  readonly inflight: number;
  /** What the in-flight work is charged against the pace, in points. */
  readonly inflightCharge: number;
  /** The 5-hour window; null when the pool has no 5-hour reading. */
  readonly fiveHour: {
    readonly usedPct: number;
    /** The reading plus what in-flight work is expected to add (equal to it without a measured rate). */
    readonly projectedPct: number;
    readonly elapsedPct: number | null;
  } | null;
  readonly spendRates: SpendRates;
  /**
   * The candidate-row numbers routing ranks this pool on, for a medium-tier task of its first lane
   * (the same `buildCandidateRow` as `run --json`'s candidates): pace minus charges, the 5-hour
   * forecast with such a task, where its duration estimate came from, and the 5-hour flags.
   * `effectiveSurplus` is null when the pace is unknown (unmetered, or no reset known): an unknown
   * surplus is never shown as 0 (routing ranks such a pool as if its pace were 0, docs/routing.md).
   */
  readonly effectiveSurplus: number | null;
  readonly forecastFiveHourPct: number | null;
  readonly estimateSource: 'recorded' | 'bootstrap';
  readonly nearFiveHourPenalty: boolean;
  readonly forecastOverLimit: boolean;
  readonly forecastGated: false;
  /** Forecast >= 95% of the pacing window and above its elapsed share: ranked last. */
  readonly draining: boolean;
  readonly expiringSoon: boolean;
  readonly urgency: number | null;
  /** Minutes until the pacing window resets; null when unknown. */
  readonly resetsInMinutes: number | null;
  readonly spentWindows: readonly PoolViewSpentWindow[];
  /** The share of each window kept for the person (`pools reserve`), in points; `{}` when none. */
  readonly reserves: WindowReserves;
  /** Windows inside their reserve (and below 100%): the pool is `reserved` while any is listed. */
  readonly reservedWindows: readonly PoolViewReservedWindow[];
  /**
   * Why the pool cannot run anything, independent of meters: its connector is not installed, or
   * its CLI is missing (`codex not on PATH`, `/opt/codex/bin/codex does not exist`).
   */
  readonly problem: string | null;
  /**
   * The agent CLI the pool runs (its own `command`, else the connector's) and the file found for it
   * (null when missing); null when the connector does not say what it runs.
   */
  readonly cli: { readonly command: string; readonly path: string | null } | null;
  /** The most binding state (see {@link PoolState}). */
  readonly state: PoolState;
  /** Every state that applies, most binding first (`near-5h-limit` and `expiring-soon` can combine). */
  readonly states: readonly PoolState[];
}

/** Tiers of a pool in display order: low, medium, high, then any other tier by name. */
export function orderedTiers(tiers: Iterable<string>): string[] {
  const list = [...new Set(tiers)];
  const rank = (tier: string) => {
    const index = TIER_ORDER.indexOf(tier);
    return index === -1 ? TIER_ORDER.length : index;
  };
  return list.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Builds the view of every pool from its routing snapshot, sorted by pool id. Every number comes
 * from `@bullswarm/pacing`: pace from `computePace`, the 5-hour projection, in-flight charge,
 * expiring-soon and urgency from `buildCandidateRow` (the same function routing uses; only the
 * fields that do not depend on a task are read), spent and reserved windows from `checkSpent`.
 */
export function buildPoolViews(
  snapshots: PoolSnapshots,
  options: { readonly inflightPenaltyPct?: number } = {},
): PoolView[] {
  const now = snapshots.now;
  const penalty = options.inflightPenaltyPct ?? DEFAULT_INFLIGHT_PENALTY_PCT;
  return [...snapshots.pools]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((pool) => buildPoolView(pool, snapshots.details.get(pool.id), now, penalty));
}

function buildPoolView(
  pool: PoolSnapshot,
  detail: PoolDetail | undefined,
  now: number,
  penaltyPct: number,
): PoolView {
  const pace = computePace(pool, now);
  // Task-independent fields only: the tier and lane below do not change pace, in-flight charge,
  // the 5-hour projection (in-flight work), expiring-soon or urgency.
  const row = buildCandidateRow(
    pool,
    { lane: pool.lanes[0] ?? 'analyze', tier: 'medium', kind: 'single-run' },
    now,
    {},
    penaltyPct,
  );
  const spent = checkSpent(pool, now, { ignoreReserve: true });
  const until = (kind: WindowKind): string | null => {
    const raw = findWindow(pool.meter, kind);
    const resetsAt = raw === null ? undefined : effectiveWindow(raw, now).resetsAt;
    return resetsAt === undefined ? null : formatTime(resetsAt);
  };
  const spentWindows: PoolViewSpentWindow[] = (spent?.spentWindows ?? []).map((kind) => ({
    window: kind,
    until: until(kind),
  }));
  // Windows at or above `100 − reserve` that are not at 100% themselves.
  const gated = checkSpent(pool, now);
  const reservedWindows: PoolViewReservedWindow[] = (gated?.spentWindows ?? [])
    .filter((kind) => !spentWindows.some((s) => s.window === kind))
    .map((kind) => ({ window: kind, until: until(kind), reservePct: reserveOf(pool, kind) }));

  const models: Record<string, PoolViewModel | null> = {};
  for (const tier of orderedTiers(Object.keys(pool.models))) {
    const tierModel = pool.models[tier];
    models[tier] =
      tierModel == null ? null : { model: tierModel.model ?? null, free: isFreeTierModel(tierModel) };
  }

  const problem = detail?.problem ?? null;
  const states: PoolState[] = [];
  if (problem !== null) states.push('unavailable');
  if (!pool.enabled) states.push('disabled');
  if (spent !== null) states.push('burst-gated');
  if (reservedWindows.length > 0) states.push('reserved');
  if (row.nearFiveHourLimit) states.push('near-5h-limit');
  if (row.draining) states.push('draining');
  else if (row.expiringSoon) states.push('expiring-soon');
  if (states.length === 0) states.push('ready');

  const meter = pool.meter;
  return {
    id: pool.id,
    poolLabel: pool.label ?? pool.id,
    connector: pool.connectorId,
    account: detail?.account ?? (pool.id.includes(':') ? pool.id.slice(pool.id.indexOf(':') + 1) : 'default'),
    enabled: pool.enabled,
    command: detail?.pool.command ?? null,
    cost: pool.cost ?? null,
    lanes: pool.lanes,
    models,
    meter: {
      status: meter.status,
      windows: meter.windows.map((w) => ({
        kind: w.kind,
        usedPct: w.usedPct,
        resetsAt: w.resetsAt === undefined ? null : formatTime(w.resetsAt),
        windowMinutes: w.windowMinutes,
      })),
      readAt: meter.readAt === undefined ? null : formatTime(meter.readAt),
    },
    meterError: meter.meterError ?? null,
    meterErrorDetail: meter.meterErrorDetail ?? null,
    meterHoldUntil: meter.meterHoldUntil === undefined ? null : formatTime(meter.meterHoldUntil),
    pacingWindow: pool.pacingWindow,
    pace: pace.pace,
    usedPct: pace.usedPct,
    elapsedPct: pace.elapsedPct,
    inflight: row.inflight,
    inflightCharge: row.inflightCharge,
    fiveHour:
      row.fiveHourUsedPct === null
        ? null
        : {
            usedPct: row.fiveHourUsedPct,
            projectedPct: row.projectedFiveHourPct ?? row.fiveHourUsedPct,
            elapsedPct: row.fiveHourElapsedPct,
          },
    spendRates: pool.spendRates,
    effectiveSurplus: row.pace === null ? null : row.effectiveSurplus,
    forecastFiveHourPct: row.forecastFiveHourPct,
    estimateSource: row.estimateSource,
    nearFiveHourPenalty: row.nearFiveHourPenalty,
    forecastOverLimit: row.forecastOverLimit,
    forecastGated: row.forecastGated,
    draining: row.draining,
    expiringSoon: row.expiringSoon,
    urgency: row.urgency,
    resetsInMinutes: row.resetsInMinutes,
    spentWindows,
    reserves: activeReserves(pool.reserves),
    reservedWindows,
    problem,
    cli: detail?.cli === undefined ? null : { command: detail.cli.command, path: detail.cli.path },
    state: states[0]!,
    states,
  };
}
