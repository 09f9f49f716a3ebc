import type { InflightRecord } from '../types';
import { timedInflightSpend } from './remaining-minutes';

/** A window's reading projected forward by in-flight work and by the candidate task. */
export interface WindowForecast {
  /** The reading plus what in-flight work is expected to add; null without a reading. */
  readonly projectedPct: number | null;
  /** Projected plus what the candidate task is expected to add; null without a reading. */
  readonly forecastPct: number | null;
}

/**
 * Forecasts one window (routing uses it for the 5-hour window):
 * `projected = used + Σ rate × remaining minutes` over in-flight records with a known expected
 * duration (records without one add nothing), and `forecast = projected + rate × candidateMinutes`.
 * Without a measured rate both equal the reading; without a reading both are null.
 */
export function forecastWindow(input: {
  readonly usedPct: number | null;
  readonly ratePerMinute: number | null;
  readonly inflight: readonly InflightRecord[];
  readonly candidateMinutes: number;
  readonly now: number;
}): WindowForecast {
  const { usedPct, ratePerMinute } = input;
  if (usedPct === null) return { projectedPct: null, forecastPct: null };
  if (ratePerMinute === null) return { projectedPct: usedPct, forecastPct: usedPct };
  const projected = usedPct + timedInflightSpend(input.inflight, ratePerMinute, input.now);
  return { projectedPct: projected, forecastPct: projected + ratePerMinute * input.candidateMinutes };
}
