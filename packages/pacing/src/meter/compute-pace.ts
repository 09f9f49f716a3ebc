import type { MeterWindow, PoolSnapshot } from '../types';
import { effectiveWindow } from './effective-window';
import { findWindow } from './find-window';
import { elapsedPctOfEffective } from './window-elapsed-pct';

/** Pace of a pool: how far behind its own clock it is. */
export interface PaceResult {
  /** `elapsedPct − usedPct` of the pacing window (the surplus); null when unknown. */
  readonly pace: number | null;
  /** Effective used share of the pacing window; null without a reading. */
  readonly usedPct: number | null;
  /** Elapsed share of the pacing window; null without a reading or a known reset. */
  readonly elapsedPct: number | null;
  /** The effective pacing window; null without a reading. */
  readonly window: MeterWindow | null;
}

/**
 * Pace (surplus) = elapsed% − used% of the pool's pacing window (`pool.pacingWindow`), on the
 * effective window. Null when the meter is `unmetered`, the pacing window has no reading, or its
 * reset is unknown. Routing ranks a null pace as 0 ("never assumed idle"); it displays as `-`.
 */
export function computePace(pool: PoolSnapshot, now: number): PaceResult {
  const raw = findWindow(pool.meter, pool.pacingWindow);
  if (raw === null) return { pace: null, usedPct: null, elapsedPct: null, window: null };
  const window = effectiveWindow(raw, now);
  const elapsedPct = elapsedPctOfEffective(window, now);
  return {
    pace: elapsedPct === null ? null : elapsedPct - window.usedPct,
    usedPct: window.usedPct,
    elapsedPct,
    window,
  };
}
