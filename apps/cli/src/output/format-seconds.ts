import { formatDuration } from '@bullswarm/pacing/internal';

/** Whole seconds of a sub-minute duration given in minutes: `30s`, `0s`. */
export function formatSeconds(minutes: number): string {
  return `${Math.max(0, Math.round(minutes * 60))}s`;
}

/**
 * A duration for people: under a minute in seconds (`30s`, so a 30-second hold never reads `0m`),
 * else pacing's `formatDuration` (`5m`, `1h 5m`, `2d 3h`).
 */
export function formatShortDuration(minutes: number): string {
  return minutes < 1 ? formatSeconds(minutes) : formatDuration(minutes);
}

/**
 * The time left of a countdown, given in ms: whole seconds rounded up, so it never reads `0s` (or
 * `0m`) while there is still time to wait; under a minute in seconds (`45s`), else as
 * {@link formatShortDuration} (`1m`, `10m`, `1h 5m`).
 */
export function formatCountdownMs(ms: number): string {
  return formatShortDuration(Math.ceil(Math.max(0, ms) / 1000) / 60);
}
