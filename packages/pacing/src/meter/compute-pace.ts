import { reserveOf, usableUsedPct } from '../reserve/window-reserve';
import type { MeterWindow, PoolSnapshot } from '../types';
import { effectiveWindow } from './effective-window';
import { findWindow } from './find-window';
import { elapsedPctOfEffective } from './window-elapsed-pct';

/** Pace of a pool: how far behind its own clock it is. */
export interface PaceResult {
  /** `elapsedPct − usableUsedPct` of the pacing window (the surplus); null when unknown. */
  readonly pace: number | null;
  /** Effective used share of the pacing window, as the meter reads it; null without a reading. */
  readonly usedPct: number | null;
  /**
   * The used share of the pacing window's usable part when the pool keeps a reserve on it
   * (`usableUsedPct`); equal to `usedPct` without one. Null without a reading.
   */
  readonly usableUsedPct: number | null;
  /** The reserve kept on the pacing window, in points (0 when none). */
  readonly reservePct: number;
  /** Elapsed share of the pacing window; null without a reading or a known reset. */
  readonly elapsedPct: number | null;
  /** The effective pacing window; null without a reading. */
  readonly window: MeterWindow | null;
}

/**
 * Pace (surplus) = elapsed% − used% of the pool's pacing window (`pool.pacingWindow`), on the
 * effective window; with a reserve `r` on that window the used share is read against its usable
 * part, `used × 100 / (100 − r)` (`usableUsedPct`). Null when the meter is `unmetered`, the pacing window has no reading, or its
 * reset is unknown. Routing ranks a null pace as 0 ("never assumed idle"); it displays as `-`.
 */
export function computePace(pool: PoolSnapshot, now: number): PaceResult {
  const reservePct = reserveOf(pool, pool.pacingWindow);
  const raw = findWindow(pool.meter, pool.pacingWindow);
  if (raw === null) {
    return { pace: null, usedPct: null, usableUsedPct: null, reservePct, elapsedPct: null, window: null };
  }
  const window = effectiveWindow(raw, now);
  const elapsedPct = elapsedPctOfEffective(window, now);
  const usable = usableUsedPct(window.usedPct, reservePct);
  return {
    pace: elapsedPct === null ? null : elapsedPct - usable,
    usedPct: window.usedPct,
    usableUsedPct: usable,
    reservePct,
    elapsedPct,
    window,
  };
}
