import { MINUTE_MS } from '../constants';
import type { InflightRecord } from '../types';

/**
 * Minutes an in-flight record is still expected to run: `max(0, expectedMinutes − elapsed)`;
 * null when its expected duration is unknown.
 */
export function remainingMinutes(record: InflightRecord, now: number): number | null {
  if (record.expectedMinutes === undefined) return null;
  return Math.max(0, record.expectedMinutes - (now - record.startedAt) / MINUTE_MS);
}

/**
 * `Σ rate × remaining minutes` over the records with a known expected duration (records without
 * one add nothing). Shared by the pace charge and the window forecasts; allocates nothing.
 */
export function timedInflightSpend(
  inflight: readonly InflightRecord[],
  ratePerMinute: number,
  now: number,
): number {
  let spend = 0;
  for (let i = 0; i < inflight.length; i++) {
    const remaining = remainingMinutes(inflight[i]!, now);
    if (remaining !== null) spend += ratePerMinute * remaining;
  }
  return spend;
}

/** Records charged the flat penalty: all of them without a rate, else those with no expected duration. */
export function flatChargedRecords(
  inflight: readonly InflightRecord[],
  ratePerMinute: number | null,
): number {
  if (ratePerMinute === null) return inflight.length;
  let count = 0;
  for (let i = 0; i < inflight.length; i++) if (inflight[i]!.expectedMinutes === undefined) count++;
  return count;
}
