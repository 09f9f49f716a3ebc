import { DEFAULT_MIN_WORKER_MINUTES, MINUTE_MS } from '../constants';
import { InvalidInputError } from '../errors/invalid-input-error';

/** One retained reading of a single window. */
export interface SpendReading {
  readonly readAt: number;
  readonly usedPct: number;
  readonly resetsAt?: number;
}

/** A measured spend rate. */
export interface SpendRate {
  /** Percentage points of the window per worker-minute. */
  readonly ratePerMinute: number;
  /** Worker-minutes the rate was measured over. */
  readonly workerMinutes: number;
}

/**
 * Measures how fast dispatched work spends one window, in points per worker-minute.
 *
 * Readings of ONE window are walked as consecutive pairs (sorted by `readAt` first, so the input
 * order does not matter). A pair is skipped when `usedPct` went down or `resetsAt` changed (a reset
 * happened in between). For each remaining pair the attributable worker-minutes are the summed
 * overlap of every worker interval with `[a.readAt, b.readAt]` (two workers at once count twice);
 * only pairs with more than 0 worker-minutes count. The rate is `ΣΔused / Σworker-minutes`.
 *
 * @returns null while fewer than `minWorkerMinutes` (default 5) worker-minutes are attributable.
 * @throws InvalidInputError for a non-finite reading or time, or an interval that ends before it starts.
 */
export function computeSpendRate(input: {
  readonly readings: readonly SpendReading[];
  readonly workerIntervals: readonly { readonly start: number; readonly end: number }[];
  readonly minWorkerMinutes?: number;
}): SpendRate | null {
  const minWorkerMinutes = input.minWorkerMinutes ?? DEFAULT_MIN_WORKER_MINUTES;
  if (!(Number.isFinite(minWorkerMinutes) && minWorkerMinutes >= 0)) {
    fail('minWorkerMinutes', 'minutes at or above 0', minWorkerMinutes);
  }
  input.readings.forEach((r, i) => {
    if (!Number.isFinite(r.readAt)) fail(`readings[${i}].readAt`, 'a finite epoch-ms number', r.readAt);
    if (!Number.isFinite(r.usedPct)) fail(`readings[${i}].usedPct`, 'a finite percentage', r.usedPct);
  });
  input.workerIntervals.forEach((w, i) => {
    if (!(Number.isFinite(w.start) && Number.isFinite(w.end) && w.end >= w.start)) {
      fail(`workerIntervals[${i}]`, 'finite epoch-ms start and end with end >= start', w);
    }
  });
  const readings = [...input.readings].sort((a, b) => a.readAt - b.readAt);
  let spent = 0;
  let workerMinutes = 0;
  for (let i = 1; i < readings.length; i++) {
    const a = readings[i - 1]!;
    const b = readings[i]!;
    if (b.usedPct < a.usedPct || b.resetsAt !== a.resetsAt) continue;
    let overlapMs = 0;
    for (const interval of input.workerIntervals) {
      const start = Math.max(interval.start, a.readAt);
      const end = Math.min(interval.end, b.readAt);
      if (end > start) overlapMs += end - start;
    }
    if (overlapMs <= 0) continue;
    spent += b.usedPct - a.usedPct;
    workerMinutes += overlapMs / MINUTE_MS;
  }
  if (workerMinutes <= 0 || workerMinutes < minWorkerMinutes) return null;
  return { ratePerMinute: spent / workerMinutes, workerMinutes };
}

function fail(field: string, expected: string, received: unknown): never {
  throw new InvalidInputError({ field, expected, received });
}
