import type { InflightRecord } from '../types';
import { remainingMinutes } from './remaining-minutes';

/** What in-flight work is charged against a pool's pace, in points. */
export interface InflightCharge {
  /** The total charge subtracted from pace. */
  readonly total: number;
  /** The part charged at the measured rate (it also feeds the pacing forecast). */
  readonly rateBased: number;
  /** The part charged at the flat penalty. */
  readonly flat: number;
}

/**
 * The in-flight charge on a pool's pace. Each record is charged
 * `rate × max(0, expectedMinutes − elapsedMinutes)` ("no floor") when the pacing window has a
 * measured rate and the record has an expected duration; otherwise the flat `penaltyPct`
 * (`config.inflightPenaltyPct`, default 3; 0 turns it off).
 */
export function inflightCharge(input: {
  readonly inflight: readonly InflightRecord[];
  readonly ratePerMinute: number | null;
  readonly penaltyPct: number;
  readonly now: number;
}): InflightCharge {
  let rateBased = 0;
  let flat = 0;
  for (const record of input.inflight) {
    const left = input.ratePerMinute === null ? null : remainingMinutes(record, input.now);
    if (left === null) flat += input.penaltyPct;
    else rateBased += input.ratePerMinute! * left;
  }
  return { total: rateBased + flat, rateBased, flat };
}
