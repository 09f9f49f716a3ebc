import type { CandidateRow } from '../types';

// The numbers of one candidate, at `slot * STRIDE + <field>` of `CandidateTable.numbers`.
export const F_PACE = 0;
export const F_EFFECTIVE_SURPLUS = 1;
export const F_INFLIGHT = 2;
export const F_INFLIGHT_CHARGE = 3;
export const F_PROJECTED_FIVE_HOUR = 4;
export const F_FORECAST_FIVE_HOUR = 5;
export const F_RATE = 6;
export const F_EXPECTED_MINUTES = 7;
export const F_ESTIMATE_SAMPLES = 8;
export const F_URGENCY = 9;
export const F_RESETS_IN_MINUTES = 10;
export const F_PACING_RESETS_AT = 11;
export const F_FORECAST_PACING = 12;
export const F_PACING_ELAPSED = 13;
export const F_PACING_USED = 14;
export const F_PACING_RESERVE = 15;
export const F_FIVE_HOUR_RESERVE = 16;
export const F_FIVE_HOUR_USED = 17;
export const F_FIVE_HOUR_ELAPSED = 18;
export const F_CANDIDATE_CHARGE = 19;
const STRIDE = 20;

// The flags of one candidate (`CandidateTable.flags`): its booleans, and which nullable numbers
// are known (a null is never encoded as a number, so every value reads back exactly).
export const NEAR_FIVE_HOUR_LIMIT = 1;
export const FORECAST_OVER_LIMIT = 2;
export const FREE = 4;
export const EXPIRING_SOON = 8;
export const DRAINING = 16;
export const ASSIGNED = 32;
export const URGENT = 64;
export const MONTHLY = 128;
/** The pacing window has a reading: `pacingUsedPct` and `forecastPacingPct` are known. */
export const HAS_PACING = 256;
/** …and a known reset: `pace`, `pacingElapsedPct`, `pacingResetsAt`, `resetsInMinutes` are known. */
export const HAS_PACING_RESET = 512;
/** A 5-hour reading: `fiveHourUsedPct` and the 5-hour projection and forecast are known. */
export const HAS_FIVE_HOUR = 1024;
/** …with a known reset: `fiveHourElapsedPct` is known. */
export const HAS_FIVE_HOUR_RESET = 2048;
/** The pacing window's spend rate is measured (`ratePerMinute`). */
export const HAS_RATE = 4096;
/** The expected minutes are the p50 of recorded runs (`estimateSource: 'recorded'`). */
export const RECORDED = 8192;

/**
 * The candidates of one decision, one slot each, as columns of numbers instead of row objects:
 * a 10,000-pool decision allocates a few typed arrays rather than 10,000 rows of 35 fields (each
 * fractional number a heap object of its own), and the ordering scans read contiguous memory.
 * `rowAt` builds the {@link CandidateRow} of a slot when someone reads it, with exactly the fields,
 * values and key order `buildCandidateRow` returns. The table is written once, by the decision
 * that owns it, and only read afterwards, so rows built later are the rows of that moment.
 */
export class CandidateTable {
  /** Slots in use. */
  size = 0;
  readonly numbers: Float64Array;
  readonly flags: Int32Array;
  /** Ordering keys 1–6 packed (see `classKey`); the 5-hour penalty bit is added by the ordering. */
  readonly keys: Int32Array;
  /** Ordering key 7: urgency for an urgent pool, effective surplus otherwise. */
  readonly scores: Float64Array;
  readonly poolIds: string[];
  readonly labels: string[];
  readonly models: (string | null)[];

  constructor(capacity: number) {
    // One buffer for the four columns (one allocation, one backing store).
    const buffer = new ArrayBuffer(capacity * (STRIDE * 8 + 8 + 4 + 4));
    this.numbers = new Float64Array(buffer, 0, capacity * STRIDE);
    this.scores = new Float64Array(buffer, capacity * STRIDE * 8, capacity);
    this.flags = new Int32Array(buffer, capacity * (STRIDE * 8 + 8), capacity);
    this.keys = new Int32Array(buffer, capacity * (STRIDE * 8 + 12), capacity);
    // Sized once (no growing copies); only `[0, size)` is read.
    this.poolIds = new Array(capacity);
    this.labels = new Array(capacity);
    this.models = new Array(capacity);
  }

  /** Claims the next slot; its numbers are written at `slot * STRIDE` (see {@link offset}). */
  claim(poolId: string, label: string, model: string | null): number {
    const slot = this.size++;
    this.poolIds[slot] = poolId;
    this.labels[slot] = label;
    this.models[slot] = model;
    return slot;
  }

  /** Where a slot's numbers start in {@link numbers}. */
  offset(slot: number): number {
    return slot * STRIDE;
  }

  /** Hands back the last claimed slot (a row that did not become a candidate); the next claim reuses it. */
  release(slot: number): void {
    if (slot !== this.size - 1) throw new Error(`CandidateTable.release: slot ${slot} is not the last`);
    this.size--;
  }

  /**
   * The row of a slot. `penalised` and `selectable` are the two fields that depend on the other
   * candidates (`nearFiveHourPenalty` and `selectable`), decided by the ordering.
   */
  rowAt(slot: number, penalised: boolean, selectable: boolean): CandidateRow {
    const n = this.numbers;
    const o = slot * STRIDE;
    const f = this.flags[slot]!;
    const pacing = (f & HAS_PACING) !== 0;
    const pacingReset = (f & HAS_PACING_RESET) !== 0;
    const five = (f & HAS_FIVE_HOUR) !== 0;
    const expiring = (f & EXPIRING_SOON) !== 0;
    const draining = (f & DRAINING) !== 0;
    // The key order is buildCandidateRow's: JSON output (run --json, run records) keeps it.
    return {
      poolId: this.poolIds[slot]!,
      poolLabel: this.labels[slot]!,
      pace: pacingReset ? n[o + F_PACE]! : null,
      effectiveSurplus: n[o + F_EFFECTIVE_SURPLUS]!,
      inflight: n[o + F_INFLIGHT]!,
      inflightCharge: n[o + F_INFLIGHT_CHARGE]!,
      projectedFiveHourPct: five ? n[o + F_PROJECTED_FIVE_HOUR]! : null,
      forecastFiveHourPct: five ? n[o + F_FORECAST_FIVE_HOUR]! : null,
      ratePerMinute: (f & HAS_RATE) !== 0 ? n[o + F_RATE]! : null,
      expectedMinutes: n[o + F_EXPECTED_MINUTES]!,
      estimateSource: (f & RECORDED) !== 0 ? 'recorded' : 'bootstrap',
      estimateSamples: n[o + F_ESTIMATE_SAMPLES]!,
      nearFiveHourLimit: (f & NEAR_FIVE_HOUR_LIMIT) !== 0,
      nearFiveHourPenalty: penalised,
      forecastOverLimit: (f & FORECAST_OVER_LIMIT) !== 0,
      forecastGated: false,
      free: (f & FREE) !== 0,
      model: this.models[slot]!,
      expiringSoon: expiring,
      urgency: expiring ? n[o + F_URGENCY]! : null,
      resetsInMinutes: pacingReset ? n[o + F_RESETS_IN_MINUTES]! : null,
      forecastPacingPct: pacing ? n[o + F_FORECAST_PACING]! : null,
      pacingElapsedPct: pacingReset ? n[o + F_PACING_ELAPSED]! : null,
      draining,
      assigned: (f & ASSIGNED) !== 0,
      urgent: (f & URGENT) !== 0,
      pacingWindow: (f & MONTHLY) !== 0 ? 'monthly' : 'weekly',
      pacingUsedPct: pacing ? n[o + F_PACING_USED]! : null,
      pacingReservePct: n[o + F_PACING_RESERVE]!,
      fiveHourReservePct: n[o + F_FIVE_HOUR_RESERVE]!,
      fiveHourUsedPct: five ? n[o + F_FIVE_HOUR_USED]! : null,
      fiveHourElapsedPct: (f & HAS_FIVE_HOUR_RESET) !== 0 ? n[o + F_FIVE_HOUR_ELAPSED]! : null,
      candidateCharge: n[o + F_CANDIDATE_CHARGE]!,
      pacingResetsAt: pacingReset ? n[o + F_PACING_RESETS_AT]! : null,
      selectable,
    };
  }
}
