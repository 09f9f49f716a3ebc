import { MINUTE_MS } from '../constants';
import type { EffortTier, RunSample } from '../types';

/**
 * Wall minutes of the recorded runs at (pool, tier) that were not stalled — any outcome except
 * `stalled` (a run flagged `stalled` is excluded whatever its outcome), so a pool cannot tighten its
 * own stall threshold by stalling. Runs with a negative or non-finite duration are corrupt history
 * and are skipped rather than failing the whole decision.
 */
export function recordedMinutes(runs: readonly RunSample[], poolId: string, tier: EffortTier): number[] {
  const minutes: number[] = [];
  for (const run of runs) {
    if (run.poolId !== poolId || run.tier !== tier || run.stalled || run.outcome === 'stalled') continue;
    const duration = (run.endedAt - run.startedAt) / MINUTE_MS;
    if (Number.isFinite(duration) && duration >= 0) minutes.push(duration);
  }
  return minutes;
}

/** The median (p50): the middle value, or the mean of the two middle values; null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
