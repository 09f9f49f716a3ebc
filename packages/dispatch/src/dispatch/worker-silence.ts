import { type PoolSnapshot, stallThresholdMinutes } from '@bullswarm/pacing';
import type { WatchdogSettings } from './dispatch-types';

/**
 * The silence clock of one attempt, ms: `settings.silenceMs` (BULLSWARM_WORKER_SILENCE_SEC) when
 * set; else a metered pool's one hour, and a free model's p50 of its own non-stalled runs at
 * (pool, tier) once 3 are recorded (floor 5 min; pacing's `stallThresholdMinutes`).
 */
export function workerSilenceMs(input: {
  readonly settings: Pick<WatchdogSettings, 'silenceMs'>;
  readonly free: boolean;
  readonly pool: Pick<PoolSnapshot, 'id' | 'runs'>;
  readonly tier: string;
}): number {
  if (input.settings.silenceMs !== undefined) return input.settings.silenceMs;
  return (
    stallThresholdMinutes({
      free: input.free,
      runs: input.pool.runs,
      poolId: input.pool.id,
      tier: input.tier,
    }).minutes * 60_000
  );
}
