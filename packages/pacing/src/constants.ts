import type { EffortTier, Lane, WindowKind } from './types';

/** A 5-hour reading at or above this share is near its limit (a soft ordering penalty, never a cutoff). */
export const FIVE_HOUR_NEAR_LIMIT_PCT = 75;

/** A metered window (5-hour, weekly, monthly) at or above this share is spent until it resets. */
export const BURST_BLOCK_PCT = 100;

/** The flat in-flight charge per record when no spend rate is measured (`config.inflightPenaltyPct`). */
export const DEFAULT_INFLIGHT_PENALTY_PCT = 3;

/** A pacing-window forecast at or above this share, ahead of its clock, is draining. */
export const DRAINING_FORECAST_PCT = 95;

/** Expected minutes per effort tier before a pool has recorded runs at that tier. */
export const DEFAULT_BOOTSTRAP_MINUTES: Record<string, number> = { low: 2.5, medium: 5.67, high: 12 };

/** Expected minutes for a tier with neither a recorded run, a setting nor a built-in bootstrap value. */
export const FALLBACK_BOOTSTRAP_MINUTES = 5.67;

/** The effort tier a lane resolves to unless the task says otherwise. */
export const DEFAULT_LANE_TIER: Record<Lane, EffortTier> = { analyze: 'medium', build: 'high', chore: 'low' };

/** Silence threshold of a metered pool's worker, in minutes. */
export const METERED_STALL_MINUTES = 60;

/** The lowest silence threshold a free pool's own p50 can set, in minutes. */
export const FREE_STALL_FLOOR_MINUTES = 5;

/** Recorded non-stalled runs a free (pool, tier) needs before its p50 sets the silence threshold. */
export const FREE_STALL_MIN_RUNS = 3;

/** A weekly pacing window is expiring soon within this many minutes of its reset (24 h). */
export const WEEKLY_EXPIRING_MINUTES = 24 * 60;

/** A monthly pacing window is expiring soon within this many minutes of its reset (3 days). */
export const MONTHLY_EXPIRING_MINUTES = 72 * 60;

/** Worker-minutes a window needs attributed before a spend rate is reported (`computeSpendRate`). */
export const DEFAULT_MIN_WORKER_MINUTES = 5;

/** Capacity verdict thresholds (of the binding window's free share), as coding-agents-kit defaults. */
export const DEFAULT_CAPACITY_LOW_PCT = 25;
export const DEFAULT_CAPACITY_CRITICAL_PCT = 10;

/**
 * A window's length in minutes when its source does not say: 300 (5 h), 10080 (7 days),
 * 43200 (30 days).
 */
export const DEFAULT_WINDOW_MINUTES: Readonly<Record<WindowKind, number>> = {
  five_hour: 300,
  weekly: 10_080,
  monthly: 43_200,
};

/** Milliseconds per minute. */
export const MINUTE_MS = 60_000;

/** The largest reserve a window can keep for the person (`bullswarm pools reserve`), in points. */
export const MAX_RESERVE_PCT = 90;
