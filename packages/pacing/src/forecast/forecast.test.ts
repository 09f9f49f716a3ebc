import { describe, expect, it } from 'vitest';
import { inflightRecord, NOW } from '../test-support/make-pool';
import { forecastWindow } from './forecast-window';
import { inflightCharge } from './inflight-charge';
import { flatChargedRecords, remainingMinutes, timedInflightSpend } from './remaining-minutes';

// Started 4 minutes ago expecting 10 (6 left), 30 minutes ago expecting 10 (overdue, 0 left), and
// one without an expected duration.
const inflight = [
  inflightRecord('timed', 4, 10),
  inflightRecord('overdue', 30, 10),
  inflightRecord('untimed', 1),
];

describe('forecastWindow', () => {
  it('adds rate × remaining minutes of timed in-flight work, then the candidate', () => {
    const result = forecastWindow({ usedPct: 50, ratePerMinute: 2, inflight, candidateMinutes: 5, now: NOW });
    expect(result.projectedPct).toBeCloseTo(62, 9);
    expect(result.forecastPct).toBeCloseTo(72, 9);
  });

  it('equals the reading without a rate, and is null without a reading', () => {
    expect(
      forecastWindow({ usedPct: 50, ratePerMinute: null, inflight, candidateMinutes: 5, now: NOW }),
    ).toEqual({
      projectedPct: 50,
      forecastPct: 50,
    });
    expect(
      forecastWindow({ usedPct: null, ratePerMinute: 2, inflight, candidateMinutes: 5, now: NOW }),
    ).toEqual({
      projectedPct: null,
      forecastPct: null,
    });
  });
});

describe('inflightCharge', () => {
  it.each([
    [null, 3, { total: 9, rateBased: 0, flat: 9 }],
    [null, 0, { total: 0, rateBased: 0, flat: 0 }],
    [0.5, 3, { total: 6, rateBased: 3, flat: 3 }],
    [0.5, 0, { total: 3, rateBased: 3, flat: 0 }],
  ])('rate %s, flat penalty %d → %j', (ratePerMinute, penaltyPct, expected) => {
    const result = inflightCharge({ inflight, ratePerMinute, penaltyPct, now: NOW });
    expect(result.total).toBeCloseTo(expected.total, 9);
    expect(result.rateBased).toBeCloseTo(expected.rateBased, 9);
    expect(result.flat).toBeCloseTo(expected.flat, 9);
  });
});

describe('in-flight primitives', () => {
  it('remainingMinutes has no floor below 0 and is null when unknown', () => {
    expect(inflight.map((r) => remainingMinutes(r, NOW))).toEqual([6, 0, null]);
  });

  it('timedInflightSpend charges only timed records; flatChargedRecords counts the rest', () => {
    expect(timedInflightSpend(inflight, 0.5, NOW)).toBeCloseTo(3, 9);
    expect(flatChargedRecords(inflight, 0.5)).toBe(1);
    expect(flatChargedRecords(inflight, null)).toBe(3);
  });
});
