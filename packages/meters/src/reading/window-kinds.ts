import type { WindowKind } from '@bullswarm/pacing';

/**
 * Every window kind a meter can report, shortest first, and a window's length in minutes when
 * the source does not say: 300 (5 h), 10080 (7 days), 43200 (30 days) (pacing's list and table).
 */
export { WINDOW_KINDS } from '@bullswarm/pacing';
export { DEFAULT_WINDOW_MINUTES } from '@bullswarm/pacing/internal';

/**
 * Classifies a window by its length, the way Codex reports it (`window_minutes`), never by the
 * slot it came in: 240–360 → `five_hour`, 9360–10800 (6.5–7.5 days) → `weekly`,
 * 40320–44640 (28–31 days) → `monthly`. Anything else is not a window bullswarm paces or
 * guards (undefined).
 */
export function classifyWindowMinutes(minutes: number): WindowKind | undefined {
  if (!Number.isFinite(minutes)) return undefined;
  if (minutes >= 240 && minutes <= 360) return 'five_hour';
  if (minutes >= 9_360 && minutes <= 10_800) return 'weekly';
  if (minutes >= 40_320 && minutes <= 44_640) return 'monthly';
  return undefined;
}

/**
 * An epoch timestamp in milliseconds from a provider number that may be seconds or
 * milliseconds: values below 1e12 (before 2001 as ms) are taken as seconds.
 */
export function epochToMs(value: number): number {
  return value < 1e12 ? Math.round(value * 1000) : Math.round(value);
}
