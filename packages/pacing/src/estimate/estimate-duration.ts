import { DEFAULT_BOOTSTRAP_MINUTES, FALLBACK_BOOTSTRAP_MINUTES } from '../constants';
import type { EffortTier, RunSample } from '../types';
import { fillRecordedMinutes, medianOfFirst } from './recorded-minutes';

/**
 * Scratch space for the run durations of one estimate (internal; not exported from the package).
 * JavaScript runs one call at a time and nothing here yields, so reusing it is safe and keeps a
 * 10,000-pool decision from allocating an array per pool. Only `[0, samples)` is read after each
 * fill, so no value carries from one call to the next.
 */
export const estimateScratch: number[] = [];

/** How long a task is expected to take on one pool. */
export interface DurationEstimate {
  readonly minutes: number;
  /** `recorded`: the p50 of this pool's runs at the tier; `bootstrap`: the tier's default. */
  readonly source: 'recorded' | 'bootstrap';
  /** Recorded runs the p50 used (0 for bootstrap). */
  readonly samples: number;
}

/**
 * Expected wall minutes of a task at `tier` on `poolId`: the median of the pool's recorded
 * non-stalled runs at that tier (one run is enough), else the bootstrap value
 * `bootstrapMinutes[tier] ?? DEFAULT_BOOTSTRAP_MINUTES[tier] ?? 5.67`.
 */
export function estimateDuration(input: {
  readonly runs: readonly RunSample[];
  readonly poolId: string;
  readonly tier: EffortTier;
  readonly bootstrapMinutes?: Readonly<Record<string, number>> | undefined;
}): DurationEstimate {
  const samples = fillRecordedMinutes(input.runs, input.poolId, input.tier, estimateScratch);
  const p50 = medianOfFirst(estimateScratch, samples);
  if (p50 !== null) return { minutes: p50, source: 'recorded', samples };
  return {
    minutes: bootstrapMinutesFor(input.tier, input.bootstrapMinutes),
    source: 'bootstrap',
    samples: 0,
  };
}

/** The bootstrap estimate of a tier: the setting, else the built-in default, else 5.67 minutes. */
export function bootstrapMinutesFor(
  tier: EffortTier,
  bootstrapMinutes: Readonly<Record<string, number>> | undefined,
): number {
  return bootstrapMinutes?.[tier] ?? DEFAULT_BOOTSTRAP_MINUTES[tier] ?? FALLBACK_BOOTSTRAP_MINUTES;
}
