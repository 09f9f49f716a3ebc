import { formatDuration } from '@bullswarm/pacing';

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
