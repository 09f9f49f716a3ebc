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
  return elapsedPctUntil(w.resetsAt, w.windowMinutes, now);
}

/**
 * {@link elapsedPctOfEffective} of an effective window with a known reset, from its two numbers:
 * a plain number (routing's per-pool pass keeps its numbers unboxed).
 */
export function elapsedPctUntil(resetsAt: number, windowMinutes: number, now: number): number {
  const left = (resetsAt - now) / MINUTE_MS;
  const pct = ((windowMinutes - left) / windowMinutes) * 100;
  return Math.min(100, Math.max(0, pct));
}
