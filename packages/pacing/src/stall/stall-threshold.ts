import { FREE_STALL_FLOOR_MINUTES, FREE_STALL_MIN_RUNS, METERED_STALL_MINUTES } from '../constants';
import { medianOfFirst, recordedMinutes } from '../estimate/recorded-minutes';
import type { EffortTier, RunSample } from '../types';

/** How long a worker may stay silent before the stall watchdog stops it. */
export interface StallThreshold {
  readonly minutes: number;
  /** `metered-default` (60), `free-default` (60, too few runs) or `p50` (the pool's own runs). */
  readonly basis: 'metered-default' | 'free-default' | 'p50';
  /** Recorded non-stalled runs at (pool, tier) that were considered. */
  readonly samples: number;
}

/**
 * The silence threshold of a worker. A metered pool keeps the one-hour default. A free pool is
 * stopped after `max(5, p50)` of its own recorded non-stalled runs at (pool, tier) once at least
 * 3 are recorded (stalled attempts never count, so a pool cannot tighten its own threshold by
 * stalling); with fewer it keeps the one-hour default.
 */
export function stallThresholdMinutes(input: {
  readonly free: boolean;
  readonly runs: readonly RunSample[];
  readonly poolId: string;
  readonly tier: EffortTier;
}): StallThreshold {
  if (!input.free) return { minutes: METERED_STALL_MINUTES, basis: 'metered-default', samples: 0 };
  const minutes = recordedMinutes(input.runs, input.poolId, input.tier);
  if (minutes.length < FREE_STALL_MIN_RUNS) {
    return { minutes: METERED_STALL_MINUTES, basis: 'free-default', samples: minutes.length };
  }
  return {
    minutes: Math.max(FREE_STALL_FLOOR_MINUTES, medianOfFirst(minutes, minutes.length)!),
    basis: 'p50',
    samples: minutes.length,
  };
}
