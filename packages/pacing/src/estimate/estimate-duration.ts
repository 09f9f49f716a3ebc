import { DEFAULT_BOOTSTRAP_MINUTES, FALLBACK_BOOTSTRAP_MINUTES } from '../constants';
import type { EffortTier, RunSample } from '../types';
import { median, recordedMinutes } from './recorded-minutes';

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
  readonly bootstrapMinutes?: Readonly<Record<string, number>>;
}): DurationEstimate {
  const minutes = recordedMinutes(input.runs, input.poolId, input.tier);
  const p50 = median(minutes);
  if (p50 !== null) return { minutes: p50, source: 'recorded', samples: minutes.length };
  return {
    minutes:
      input.bootstrapMinutes?.[input.tier] ??
      DEFAULT_BOOTSTRAP_MINUTES[input.tier] ??
      FALLBACK_BOOTSTRAP_MINUTES,
    source: 'bootstrap',
    samples: 0,
  };
}
