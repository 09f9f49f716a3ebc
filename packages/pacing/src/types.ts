/**
 * The domain model of bullswarm routing. Everything here is plain data: pool snapshots, meter
 * windows, tasks and decisions. Times are epoch milliseconds; percentages are 0–100.
 *
 * These types are the contract between the pure routing core and every adapter around it
 * (meters, store, dispatch, workflow, CLI). Another agent tool that builds the same snapshots
 * gets the same pick bullswarm makes.
 */

/** The lanes a task can run in. */
export type Lane = 'analyze' | 'build' | 'chore';

/** All lanes, in display order. */
export const LANES: readonly Lane[] = ['analyze', 'build', 'chore'];

/**
 * An effort tier names how capable a model the task needs. The built-in tiers are
 * `low`, `medium` and `high`; connectors may declare others.
 */
export type EffortTier = string;

/** The metered windows a provider can report. */
export type WindowKind = 'five_hour' | 'weekly' | 'monthly';

/** All window kinds, shortest first (the order ties between windows and window lists follow). */
export const WINDOW_KINDS: readonly WindowKind[] = ['five_hour', 'weekly', 'monthly'];

/** The subscription window a pool is paced from. The 5-hour window never paces. */
export type PacingWindowKind = 'weekly' | 'monthly';

/** One metered window as last read. */
export interface MeterWindow {
  readonly kind: WindowKind;
  /** Share of the window's quota used, 0–100 (may exceed 100 when a provider over-reports). */
  readonly usedPct: number;
  /** When the window resets (epoch ms); undefined when the provider did not say. */
  readonly resetsAt?: number;
  /** The window's length in minutes: 300, 10080, or the month's length. */
  readonly windowMinutes: number;
}

/**
 * How fresh a pool's meter is.
 * - `live`: read just now from the source.
 * - `cache`: read from the cache inside its TTL (`[cache]` in `bullswarm pools`).
 * - `stale`: the last good reading, held after a failed poll (see `meterError`, `meterHoldUntil`).
 * - `manual`: a reading a person set from the CLI.
 * - `unmetered`: no reader; surplus is unknown (shown as `-`), never assumed idle.
 */
export type MeterStatus = 'live' | 'cache' | 'stale' | 'manual' | 'unmetered';

/** A pool's meter as routing sees it. */
export interface PoolMeter {
  readonly status: MeterStatus;
  readonly windows: readonly MeterWindow[];
  /** When the reading was taken (epoch ms). */
  readonly readAt?: number;
  /** The provider reported an active rate limit (feeds the capacity verdict). */
  readonly rateLimited?: boolean;
  /** Why the last poll failed, when the reading is held stale (a short status: `http 429`, `bad meter reading`). */
  readonly meterError?: string;
  /**
   * The reader's full message for `meterError`, naming the file, command or endpoint and the field
   * path (`…/meter.json is not a valid bullswarm meter reading: windows[0].resetsAt: …`). Never
   * holds a credential. Absent when `meterError` is (and on holds written before it existed).
   */
  readonly meterErrorDetail?: string;
  /** Until when the stale reading is held before the next poll (epoch ms). */
  readonly meterHoldUntil?: number;
}

/** The model a pool runs for one effort tier. */
export interface TierModel {
  /** The model name; undefined means the connector CLI's own default. */
  readonly model?: string;
  /** The model costs nothing (declared by the connector, or a standalone `free` segment in its name). */
  readonly free: boolean;
  /**
   * The tier rung names this model explicitly (as opposed to the CLI default). Only explicitly
   * named free models are liveness-probed before dispatch.
   */
  readonly explicit?: boolean;
}

/** A piece of work already dispatched to a pool (from the cross-process in-flight ledger). */
export interface InflightRecord {
  readonly id: string;
  readonly startedAt: number;
  /** Expected duration in minutes; undefined when unknown (charged the flat penalty). */
  readonly expectedMinutes?: number;
  readonly tier?: EffortTier;
  readonly action?: string;
}

/** A recorded run, used for duration estimates, stall thresholds and spend rates. */
export interface RunSample {
  readonly poolId: string;
  readonly tier: EffortTier;
  readonly startedAt: number;
  readonly endedAt: number;
  /** The attempt was stopped by the stall watchdog (excluded from medians). */
  readonly stalled: boolean;
  readonly outcome: 'ok' | 'failed' | 'quota' | 'throttle' | 'auth' | 'empty' | 'stalled' | 'canceled';
}

/** Measured spend, in percentage points of a window per worker-minute. */
export type SpendRates = Partial<Record<WindowKind, number>>;

/**
 * The share of each window a person keeps for themselves (`bullswarm pools reserve`), in points
 * from 0 to 90 (whole or one decimal); an absent window (or 0) keeps nothing. Routing treats a
 * window with reserve `r` as spent at `100 − r` percent used, and reads every share it derives from
 * that window (surplus, urgency, the pacing forecast, the 5-hour lines) against the usable
 * `100 − r` points (see `usableUsedPct`).
 */
export type WindowReserves = Partial<Record<WindowKind, number>>;

/** Everything routing needs to know about one pool at one moment. */
export interface PoolSnapshot {
  /** Durable id: `connector` or `connector:account`, e.g. `claude-code:acme`. */
  readonly id: string;
  /** Display label (see `bullswarm pools label`); defaults to the id. */
  readonly label?: string;
  /** The connector that drives this pool, e.g. `claude-code`. */
  readonly connectorId: string;
  /** Provider family, what `route.providers.use/avoid` names (accounts of one provider are one family). */
  readonly providerFamily: string;
  /** Pools in one credential group share a credential; an auth failure skips the whole group. */
  readonly credentialGroup: string;
  readonly enabled: boolean;
  readonly lanes: readonly Lane[];
  readonly capabilities: readonly string[];
  /** Relative cost shown by `bullswarm pools` (`cost=`); display only, routing never reads it. */
  readonly cost?: number;
  /** The model per effort tier; a tier that is absent (or null) has no allowed model on this pool. */
  readonly models: Readonly<Record<EffortTier, TierModel | null | undefined>>;
  /** The window pace is computed from. */
  readonly pacingWindow: PacingWindowKind;
  /** The connector declares a rolling 5-hour window. */
  readonly hasFiveHourWindow: boolean;
  readonly meter: PoolMeter;
  /** Spend rates measured from retained readings and worker-minutes; absent window = no rate yet. */
  readonly spendRates: SpendRates;
  /** The share of each window kept for the person (see {@link WindowReserves}); absent = none. */
  readonly reserves?: WindowReserves;
  readonly inflight: readonly InflightRecord[];
  /** Recorded runs at this pool (any tier); the estimate filters by tier. */
  readonly runs: readonly RunSample[];
}

/** Route constraints of a task: hard filters applied before pacing. */
export interface TaskRoute {
  readonly providers?: { readonly use?: readonly string[]; readonly avoid?: readonly string[] };
  readonly pools?: { readonly use?: readonly string[]; readonly avoid?: readonly string[] };
  /**
   * Provider families that worked on the upstream steps named by `independentOf`, resolved by the
   * caller (the workflow engine knows who ran what); pools of these families are left out.
   */
  readonly independentOf?: readonly { readonly step: string; readonly providerFamilies: readonly string[] }[];
}

/**
 * Why no pool can take a task (`noPoolKindOf` of `@bullswarm/pacing/internal` decides it from the
 * rejections, for every decision):
 * - `quota`: a pool that could run it is spent or draining, and none was left out by the caller;
 * - `no-eligible-pool`: nothing passes the task's own filters (disabled, lane, capability, tier
 *   model, route, pin; or no pools at all): waiting does not help;
 * - `unavailable`: something of this moment keeps pools out (the caller, a failed probe, a
 *   sign-in failure's credential group, a missing connector).
 */
export type NoPoolKind = 'quota' | 'unavailable' | 'no-eligible-pool';

/**
 * Who pinned a task to one pool: the `operator` (a front end's pin option, e.g. the CLI's
 * `run --worker-pool`), a `step-restart` naming a pool, or a `gate-retry` (the same pool again).
 * The reason line says it: `pinned to <pool> (<shownAs>)`, `(step restart)`, `(the same pool (gate retry))`.
 */
export type PinSource = 'operator' | 'step-restart' | 'gate-retry';

/** A task's pin: the pool, who pinned it, and how the reason line names an operator's pin. */
export interface TaskPin {
  readonly poolId: string;
  readonly source: PinSource;
  /**
   * How the reason line names an operator's pin — the front end's own word for its pin option
   * (the CLI passes `--worker-pool`, the MCP tools `pool`): `pinned to codex (--worker-pool)`.
   * Default `operator`; not used for the other sources.
   */
  readonly shownAs?: string;
}

/** A pool a task leaves out of its picks, with why (see {@link RouteTask.excludedPools}). */
export interface ExcludedPool {
  readonly poolId: string;
  readonly reason: string;
  /** Also keeps out a pin on this pool. */
  readonly evenPinned?: boolean;
}

/** A unit of work to place. */
export interface RouteTask {
  readonly lane: Lane;
  readonly tier: EffortTier;
  readonly capabilities?: readonly string[];
  readonly route?: TaskRoute;
  readonly pin?: TaskPin;
  /**
   * Pools left out of this pick, with why (an auth failure's credential group, a failed probe, the
   * caller). A pin skips them (the operator chose the pool) unless `evenPinned`: the pool cannot
   * run anything now (its connector is missing, it is the caller, its free-model probe failed), so
   * a pin on it is no pick either — `pinned to <pool> (<source>): <reason>`, `unavailable`.
   */
  readonly excludedPools?: readonly ExcludedPool[];
  /**
   * `single-run`: a draining pool goes last. `workflow-step`: a draining pool is never given the
   * step unless pinned.
   */
  readonly kind: 'single-run' | 'workflow-step';
}

/** Tunables of a decision; every field has the spec's default. */
export interface RouteSettings {
  /** Flat in-flight charge per record when no rate is measured (default 3; 0 turns it off). */
  readonly inflightPenaltyPct?: number;
  /** Explicit tier assignments (`strategy assign <tier> --pool <p>`): tier -> pool id. */
  readonly assignments?: Readonly<Record<EffortTier, string | undefined>>;
  /** Bootstrap expected minutes per tier when a pool has no recorded runs at the tier. */
  readonly bootstrapMinutes?: Readonly<Record<EffortTier, number>>;
}

/** Why a pool could not take the task; `kind` tells a usage limit from everything else. */
export interface PoolRejection {
  readonly poolId: string;
  /**
   * - `spent`: a metered window is at 100% (`at its 5-hour limit until <time>`).
   * - `draining`: nearly spent (forecast >= 95% and past its clock) and this is a workflow step.
   * - `ineligible`: disabled, lane, capability or tier model missing.
   * - `route`: left out by the task's route or pin.
   * - `excluded`: left out by the caller (credential group after an auth failure, a failed probe).
   */
  readonly kind: 'spent' | 'draining' | 'ineligible' | 'route' | 'excluded';
  /** Human text, e.g. `at its weekly limit until 2026-12-01T00:00:00Z` or `disabled`. */
  readonly reason: string;
  /** When the pool is back (the spent window's reset), when known (epoch ms). */
  readonly backAt?: number;
  /** For `spent`: the windows at 100%, or inside their reserve (at or above `100 − reserve`). */
  readonly spentWindows?: readonly WindowKind[];
  /**
   * For `spent`: the reserve of the window named in `reason` when that window is inside its reserve
   * but below 100% (`inside its 15% weekly reserve until <time>`); absent when it is at its limit.
   */
  readonly reservePct?: number;
  /**
   * The window that keeps the pool out: for `spent` the one named in `reason` (the spent window
   * with the latest reset, or one whose reset is unknown); for `draining` the pacing window.
   */
  readonly window?: WindowKind;
}

/** One candidate row, in preference order; these are the fields `bullswarm run --json` carries. */
export interface CandidateRow {
  readonly poolId: string;
  readonly poolLabel: string;
  /**
   * Pacing surplus (elapsed% − used% of the pacing window, the used share read against the usable
   * part when a reserve is kept: `usableUsedPct`); null when unmetered or no reset known.
   */
  readonly pace: number | null;
  /** Pace minus in-flight and candidate charges (pace treated as 0 when unknown). */
  readonly effectiveSurplus: number;
  /** In-flight records on the pool. */
  readonly inflight: number;
  /** The in-flight charge subtracted from pace, in points. */
  readonly inflightCharge: number;
  /** 5-hour reading plus what in-flight work is expected to add; null when no 5-hour reading. */
  readonly projectedFiveHourPct: number | null;
  /** Projected plus what this task is expected to add; null when no 5-hour reading. */
  readonly forecastFiveHourPct: number | null;
  /** The pacing window's measured rate (points per worker-minute); null when unmeasured. */
  readonly ratePerMinute: number | null;
  /** Expected minutes of this task on this pool. */
  readonly expectedMinutes: number;
  /** Where the estimate came from. */
  readonly estimateSource: 'recorded' | 'bootstrap';
  /** Recorded runs the estimate used (0 for bootstrap). */
  readonly estimateSamples: number;
  /**
   * The pool is at/over the 5-hour near-limit line while another eligible pool is behind pace and not
   * itself ordered last (draining or forecast over 100% of its 5-hour window).
   */
  readonly nearFiveHourPenalty: boolean;
  /** The pool is at/over the near-limit line (penalised or not). */
  readonly nearFiveHourLimit: boolean;
  /** The forecast passes 100% of the 5-hour window: eligible, ordered last. */
  readonly forecastOverLimit: boolean;
  /** Compatibility flag; always false now. */
  readonly forecastGated: false;
  /** The model for the task's tier costs nothing. */
  readonly free: boolean;
  readonly model: string | null;
  /** The pacing window resets soon (weekly within 24 h, monthly within 3 days) with quota left. */
  readonly expiringSoon: boolean;
  /** surplus / fraction of the pacing window left; null when not expiring soon. */
  readonly urgency: number | null;
  /** Minutes until the pacing window resets; null when unknown. */
  readonly resetsInMinutes: number | null;
  /** When the (effective) pacing window resets, epoch ms; null when unknown. */
  readonly pacingResetsAt: number | null;
  /**
   * Forecast of the pacing window after in-flight work and this task, in points of its usable part
   * (`usableUsedPct`: equal to the window's points without a reserve).
   */
  readonly forecastPacingPct: number | null;
  /** Elapsed share of the pacing window (points). */
  readonly pacingElapsedPct: number | null;
  /** Forecast >= 95% of the pacing window and above its elapsed share. */
  readonly draining: boolean;
  /** An explicit tier assignment names this pool. */
  readonly assigned: boolean;
  /** Expiring soon and not draining: ranked on urgency, and only urgent pools are selectable. */
  readonly urgent: boolean;
  /** The window pace is computed from. */
  readonly pacingWindow: PacingWindowKind;
  /** Effective used share of the pacing window, as the meter reads it; null without a reading. */
  readonly pacingUsedPct: number | null;
  /** The reserve kept on the pacing window (0 when none); pace reads the window against `100 − it`. */
  readonly pacingReservePct: number;
  /** The reserve kept on the 5-hour window (0 when none); the 5-hour lines read against `100 − it`. */
  readonly fiveHourReservePct: number;
  /** Effective 5-hour reading; null when the pool has none. */
  readonly fiveHourUsedPct: number | null;
  /** Elapsed share of the 5-hour window; null without a reading or a known reset. */
  readonly fiveHourElapsedPct: number | null;
  /** The charge for this task itself (rate × expected minutes when the rate is measured, else 0). */
  readonly candidateCharge: number;
  /** The pool may be chosen (it survived the filters of steps 4 and 5). */
  readonly selectable: boolean;
}

/** The result of routing one task. */
export interface RouteDecision {
  /** The chosen pool id, or null when none can take the task. */
  readonly poolId: string | null;
  /** The model the chosen pool runs for the tier (null = CLI default or nothing chosen). */
  readonly model: string | null;
  /** The one reason line, in the spec's exact wording. */
  readonly reason: string;
  /** Candidate rows in preference order (the chosen pool first). */
  readonly candidates: readonly CandidateRow[];
  /** Pools that could not take the task, with why. */
  readonly rejected: readonly PoolRejection[];
  /** When nothing was chosen: why — `quota`, `no-eligible-pool` or `unavailable` (see {@link NoPoolKind}). */
  readonly noPoolKind?: NoPoolKind;
  /** When nothing was chosen: the earliest known return among the rejected pools (epoch ms). */
  readonly backAt?: number;
  /** The `forecast:` line printed under a dry run for the chosen pool. */
  readonly forecastLine?: string;
}
