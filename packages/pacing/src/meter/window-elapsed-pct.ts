import { MINUTE_MS } from '../constants';
import type { MeterWindow } from '../types';
import { effectiveWindow } from './effective-window';

/**
 * How much of the window has run, 0–100:
 * `(windowMinutes − minutesUntilReset) / windowMinutes × 100`, clamped to 0..100, on the
 * effective window. Null when the window has no `resetsAt`.
 */
export function windowElapsedPct(w: MeterWindow, now: number): number | null {
  return elapsedPctOfEffective(effectiveWindow(w, now), now);
}

/** {@link windowElapsedPct} of a window already made effective at `now` (no second pass). */
export function elapsedPctOfEffective(w: MeterWindow, now: number): number | null {
  if (w.resetsAt === undefined) return null;
  const left = (w.resetsAt - now) / MINUTE_MS;
  const pct = ((w.windowMinutes - left) / w.windowMinutes) * 100;
  return Math.min(100, Math.max(0, pct));
}
