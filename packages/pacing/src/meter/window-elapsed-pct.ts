import type { MeterWindow } from '../types';
import { minutesUntilReset } from './effective-window';

/**
 * How much of the window has run, 0–100:
 * `(windowMinutes − minutesUntilReset) / windowMinutes × 100`, clamped to 0..100, on the
 * effective window. Null when the window has no `resetsAt`.
 */
export function windowElapsedPct(w: MeterWindow, now: number): number | null {
  const left = minutesUntilReset(w, now);
  if (left === null) return null;
  const pct = ((w.windowMinutes - left) / w.windowMinutes) * 100;
  return Math.min(100, Math.max(0, pct));
}
