import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors/invalid-input-error';
import { MINUTE } from '../test-support/make-pool';
import { computeSpendRate } from './compute-spend-rate';

const t0 = Date.UTC(2026, 10, 27, 9, 0, 0);
const at = (minutes: number) => t0 + minutes * MINUTE;
const R = at(1000);

describe('computeSpendRate', () => {
  it('divides the summed rise by the attributable worker-minutes', () => {
    const result = computeSpendRate({
      readings: [
        { readAt: at(0), usedPct: 10, resetsAt: R },
        { readAt: at(10), usedPct: 12, resetsAt: R },
        { readAt: at(20), usedPct: 15, resetsAt: R },
      ],
      workerIntervals: [{ start: at(-5), end: at(20) }],
    });
    expect(result).toEqual({ ratePerMinute: 5 / 20, workerMinutes: 20 });
  });

  it('counts concurrent workers twice and only the overlap with each pair', () => {
    const result = computeSpendRate({
      readings: [
        { readAt: at(0), usedPct: 10 },
        { readAt: at(10), usedPct: 16 },
      ],
      workerIntervals: [
        { start: at(2), end: at(6) },
        { start: at(4), end: at(30) },
      ],
    });
    expect(result).toEqual({ ratePerMinute: 6 / 10, workerMinutes: 10 });
  });

  it('reports no rate under 5 worker-minutes, or under the given minimum', () => {
    const readings = [
      { readAt: at(0), usedPct: 10 },
      { readAt: at(10), usedPct: 11 },
    ];
    expect(computeSpendRate({ readings, workerIntervals: [{ start: at(0), end: at(4.9) }] })).toBeNull();
    expect(computeSpendRate({ readings, workerIntervals: [{ start: at(0), end: at(5) }] })).toEqual({
      ratePerMinute: 0.2,
      workerMinutes: 5,
    });
    expect(
      computeSpendRate({ readings, workerIntervals: [{ start: at(0), end: at(5) }], minWorkerMinutes: 6 }),
    ).toBeNull();
  });

  it('skips a pair across a reset (used went down or the reset moved)', () => {
    const result = computeSpendRate({
      readings: [
        { readAt: at(0), usedPct: 90, resetsAt: R },
        { readAt: at(10), usedPct: 2, resetsAt: R }, // went down
        { readAt: at(20), usedPct: 4, resetsAt: R + 7 * 24 * 60 * MINUTE }, // reset moved
        { readAt: at(30), usedPct: 7, resetsAt: R + 7 * 24 * 60 * MINUTE },
      ],
      workerIntervals: [{ start: at(0), end: at(30) }],
    });
    expect(result).toEqual({ ratePerMinute: 3 / 10, workerMinutes: 10 });
  });

  it('ignores pairs with no worker running, even when used rose (someone else spent it)', () => {
    const result = computeSpendRate({
      readings: [
        { readAt: at(0), usedPct: 10 },
        { readAt: at(10), usedPct: 30 },
        { readAt: at(20), usedPct: 31 },
      ],
      workerIntervals: [{ start: at(10), end: at(20) }],
    });
    expect(result).toEqual({ ratePerMinute: 0.1, workerMinutes: 10 });
  });

  it('sorts readings by time first', () => {
    const readings = [
      { readAt: at(10), usedPct: 12 },
      { readAt: at(0), usedPct: 10 },
    ];
    expect(
      computeSpendRate({ readings, workerIntervals: [{ start: at(0), end: at(10) }] })?.ratePerMinute,
    ).toBe(0.2);
  });

  it('is null without pairs', () => {
    expect(computeSpendRate({ readings: [], workerIntervals: [] })).toBeNull();
    expect(
      computeSpendRate({
        readings: [{ readAt: at(0), usedPct: 1 }],
        workerIntervals: [],
        minWorkerMinutes: 0,
      }),
    ).toBeNull();
  });
});

describe('computeSpendRate bad input', () => {
  it.each([
    [{ readings: [{ readAt: Number.NaN, usedPct: 1 }], workerIntervals: [] }, 'readings[0].readAt'],
    [
      { readings: [{ readAt: at(0), usedPct: Number.POSITIVE_INFINITY }], workerIntervals: [] },
      'readings[0].usedPct',
    ],
    [{ readings: [], workerIntervals: [{ start: at(5), end: at(1) }] }, 'workerIntervals[0]'],
    [{ readings: [], workerIntervals: [], minWorkerMinutes: -1 }, 'minWorkerMinutes'],
  ])('%j names %s', (input, field) => {
    expect(() => computeSpendRate(input)).toThrow(InvalidInputError);
    expect(() => computeSpendRate(input)).toThrow(`Invalid ${field}: expected `);
  });
});
