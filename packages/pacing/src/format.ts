import { MINUTE_MS } from './constants';
import type { WindowKind } from './types';

/**
 * One decimal with a trailing `.0` removed: `40` → `40`, `-2.1` → `-2.1`, `88.14` → `88.1`.
 * Negative zero prints as `0`.
 */
export function formatCompact(value: number): string {
  const fixed = formatFixed1(value);
  const compact = fixed.endsWith('.0') ? fixed.slice(0, -2) : fixed;
  return compact === '-0' ? '0' : compact;
}

/**
 * Exactly one decimal: `12` → `12.0`, `40` → `40.0` (the free-pool reason line). This is
 * `Number.prototype.toFixed(1)`, as the spec defines it, so other tools print the same.
 */
export function formatFixed1(value: number): string {
  return value.toFixed(1);
}

/** A compact percentage: `81` → `81%`, `99.5` → `99.5%`; null → `?%`. */
export function formatPct(value: number | null): string {
  return value == null ? '?%' : `${formatCompact(value)}%`;
}

/** A surplus for display: compact, or `-` when unknown (an unmetered pool is never assumed idle). */
export function formatSurplus(value: number | null): string {
  return value == null ? '-' : formatCompact(value);
}

/**
 * ISO-8601 UTC without milliseconds: `2026-11-30T11:00:00Z`. `toISOString` always ends in
 * `.<3 digits>Z` (and throws a RangeError for an invalid date), so the last five characters go.
 */
export function formatTime(epochMs: number): string {
  // Years 1970–9999 (four digits), computed without a Date: a decision over many pools formats a
  // reset per draining or spent pool. Anything else (and NaN) goes through Date.
  if (epochMs >= 0 && epochMs < FAST_TIME_END) return formatUtcSeconds(Math.floor(epochMs / 1000));
  const iso = new Date(epochMs).toISOString();
  return `${iso.slice(0, -5)}Z`;
}

/** 10000-01-01T00:00:00Z: from here on `toISOString` prints a six-digit year. */
const FAST_TIME_END = 253_402_300_800_000;

/**
 * `toISOString` without milliseconds of a whole number of seconds since 1970 below
 * {@link FAST_TIME_END}: the days to a civil date as in Howard Hinnant's `civil_from_days`.
 */
function formatUtcSeconds(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const secondOfDay = seconds - days * 86_400;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(secondOfDay / 3600);
  const minute = Math.floor((secondOfDay - hour * 3600) / 60);
  const second = secondOfDay - hour * 3600 - minute * 60;
  return `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}Z`;
}

function two(value: number): string {
  return TWO_DIGITS[value]!;
}

/** `00` to `60`. */
const TWO_DIGITS = Array.from({ length: 61 }, (_, i) => String(i).padStart(2, '0'));

/**
 * A duration for `resets in`: `45m`, `2h 5m`, `3d 4h`. Minutes are rounded to the nearest whole
 * minute first; under an hour prints minutes only, under a day hours and minutes, otherwise days
 * and hours (minutes dropped). Both parts always print (`2h 0m`), so lines align.
 */
export function formatDuration(minutes: number): string {
  const total = Math.max(0, Math.round(minutes));
  if (total < 60) return `${total}m`;
  if (total < 24 * 60) return `${Math.floor(total / 60)}h ${total % 60}m`;
  const hours = Math.floor(total / 60);
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** Milliseconds to a duration string (see {@link formatDuration}). */
export function formatDurationMs(ms: number): string {
  return formatDuration(ms / MINUTE_MS);
}

/** How a window is named in reason lines: `5-hour`, `weekly`, `monthly`. */
export function windowLabel(kind: WindowKind): string {
  return kind === 'five_hour' ? '5-hour' : kind;
}
