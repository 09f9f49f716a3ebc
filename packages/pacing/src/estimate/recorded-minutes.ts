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
  const count = fillRecordedMinutes(runs, poolId, tier, minutes);
  minutes.length = count;
  return minutes;
}

/**
 * {@link recordedMinutes} written into `out[0..n)` (entries past `n` are left as they were, and
 * the array is never shortened, so a caller can reuse one scratch array across pools without
 * reallocating it); returns `n`.
 */
export function fillRecordedMinutes(
  runs: readonly RunSample[],
  poolId: string,
  tier: EffortTier,
  out: number[],
): number {
  let count = 0;
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    if (run.poolId !== poolId || run.tier !== tier || run.stalled || run.outcome === 'stalled') continue;
    const duration = (run.endedAt - run.startedAt) / MINUTE_MS;
    if (Number.isFinite(duration) && duration >= 0) out[count++] = duration;
  }
  return count;
}

/** The median (p50): the middle value, or the mean of the two middle values; null when empty. */
export function median(values: readonly number[]): number | null {
  return medianOfFirst([...values], values.length);
}

/**
 * The median of `values[0..n)`, sorting that prefix in place. Recorded runs per (pool, tier) are
 * few, so an insertion sort (which allocates nothing) is used up to 32 values; longer prefixes are
 * copied and sorted with `Array.prototype.sort`.
 */
export function medianOfFirst(values: number[], n: number): number | null {
  return n <= 0 ? null : medianOfPrefix(values, n);
}

/** {@link medianOfFirst} of a prefix of at least one value: always a number. */
export function medianOfPrefix(values: number[], n: number): number {
  if (n === 1) return values[0]!;
  if (n > 32) {
    const sorted = values.slice(0, n).sort((a, b) => a - b);
    for (let i = 0; i < n; i++) values[i] = sorted[i]!;
  } else {
    for (let i = 1; i < n; i++) {
      const value = values[i]!;
      let j = i - 1;
      while (j >= 0 && values[j]! > value) {
        values[j + 1] = values[j]!;
        j--;
      }
      values[j + 1] = value;
    }
  }
  const mid = n >> 1;
  return n % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}
