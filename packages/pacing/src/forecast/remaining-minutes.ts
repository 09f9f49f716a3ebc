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
