import type { InflightRecord } from '../types';
import { flatChargedRecords, timedInflightSpend } from './remaining-minutes';

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
  const rateBased =
    input.ratePerMinute === null ? 0 : timedInflightSpend(input.inflight, input.ratePerMinute, input.now);
  const flat = flatChargedRecords(input.inflight, input.ratePerMinute) * input.penaltyPct;
  return { total: rateBased + flat, rateBased, flat };
}
