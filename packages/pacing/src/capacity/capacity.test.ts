import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors/invalid-input-error';
import { MINUTE, meterWindow, NOW } from '../test-support/make-pool';
import type { PoolMeter } from '../types';
import { capacityVerdict } from './capacity-verdict';
import { formatCapacityLine } from './format-capacity-line';

const live = (windows: PoolMeter['windows'], extra: Partial<PoolMeter> = {}): PoolMeter => ({
  status: 'live',
  windows,
  ...extra,
});

describe('capacityVerdict', () => {
  it.each([
    ['ok', live([meterWindow('five_hour', 20, 50), meterWindow('weekly', 36, 50)]), 'ok', 64, 'weekly'],
    ['low at exactly 25% free', live([meterWindow('weekly', 75, 50)]), 'low', 25, 'weekly'],
    [
      'low, the 5-hour window binds',
      live([meterWindow('five_hour', 80, 50), meterWindow('weekly', 10, 50)]),
      'low',
      20,
      'five_hour',
    ],
    ['critical at 10% free', live([meterWindow('monthly', 90, 50)]), 'critical', 10, 'monthly'],
    ['critical when over-reported', live([meterWindow('weekly', 104, 50)]), 'critical', 0, 'weekly'],
    [
      'critical when rate-limited',
      live([meterWindow('weekly', 10, 50)], { rateLimited: true }),
      'critical',
      90,
      'weekly',
    ],
    [
      'ties bind to the shorter window',
      live([meterWindow('weekly', 50, 50), meterWindow('five_hour', 50, 50)]),
      'ok',
      50,
      'five_hour',
    ],
    [
      'a window whose reset passed is empty again',
      live([
        { kind: 'five_hour', usedPct: 95, windowMinutes: 300, resetsAt: NOW - MINUTE },
        meterWindow('weekly', 40, 50),
      ]),
      'ok',
      60,
      'weekly',
    ],
    ['unknown when unmetered', { status: 'unmetered', windows: [] } as PoolMeter, 'unknown', null, null],
    ['unknown without windows', live([]), 'unknown', null, null],
    [
      'unknown when unmetered even if rate-limited',
      { status: 'unmetered', windows: [], rateLimited: true } as PoolMeter,
      'unknown',
      null,
      null,
    ],
  ])('%s', (_label, meter, verdict, freePct, bindingWindow) => {
    const result = capacityVerdict({ meter, now: NOW });
    expect(result.verdict).toBe(verdict);
    expect(result.freePct).toBe(freePct);
    expect(result.bindingWindow).toBe(bindingWindow);
  });

  it.each([
    [30, 'ok', 30],
    [25, 'low', 25],
    [90, 'ok', 64],
  ])('a cap of %d lowers the free share, never raises it', (capPct, verdict, freePct) => {
    const result = capacityVerdict({ meter: live([meterWindow('weekly', 36, 50)]), now: NOW, capPct });
    expect(result).toMatchObject({ verdict, freePct });
  });

  it('uses the given thresholds', () => {
    const meter = live([meterWindow('weekly', 60, 50)]);
    expect(capacityVerdict({ meter, now: NOW }).verdict).toBe('ok');
    expect(capacityVerdict({ meter, now: NOW, lowPct: 40 }).verdict).toBe('low');
    expect(capacityVerdict({ meter, now: NOW, lowPct: 50, criticalPct: 40 }).verdict).toBe('critical');
  });

  it('explains itself', () => {
    expect(
      capacityVerdict({ meter: live([meterWindow('weekly', 36, 50)]), now: NOW, capPct: 30 }).reason,
    ).toBe('weekly window 64% free, capped at 30% (above 25%)');
    expect(capacityVerdict({ meter: live([meterWindow('five_hour', 92, 50)]), now: NOW }).reason).toBe(
      '5-hour window 8% free (critical at or below 10%)',
    );
    expect(
      capacityVerdict({ meter: live([meterWindow('weekly', 10, 50)], { rateLimited: true }), now: NOW })
        .reason,
    ).toBe('rate-limited; weekly window 90% free');
    expect(capacityVerdict({ meter: { status: 'unmetered', windows: [] }, now: NOW }).reason).toBe(
      'no quota source (unmetered)',
    );
  });

  it.each([
    [{ lowPct: 120 }, 'lowPct'],
    [{ criticalPct: -1 }, 'criticalPct'],
    [{ lowPct: 10, criticalPct: 20 }, 'criticalPct'],
    [{ capPct: Number.NaN }, 'capPct'],
    [{ now: Number.NaN }, 'now'],
    [
      { meter: live([{ kind: 'weekly', usedPct: Number.NaN, windowMinutes: 10_080 }]) },
      'meter.windows[0].usedPct',
    ],
  ])('rejects %j naming %s', (thresholds, field) => {
    const run = () => capacityVerdict({ meter: live([]), now: NOW, ...thresholds });
    expect(run).toThrow(InvalidInputError);
    expect(run).toThrow(`Invalid ${field}: expected `);
  });
});

describe('formatCapacityLine', () => {
  it.each([
    [{ verdict: 'ok', freePct: 64 }, 'work1', 'capacity=ok 64% @work1'],
    [{ verdict: 'low', freePct: 20.25 }, 'work1', 'capacity=low 20.3% @work1'],
    [{ verdict: 'critical', freePct: 0 }, '@lead', 'capacity=critical 0% @lead'],
    [{ verdict: 'unknown', freePct: null }, 'work1', 'capacity=unknown @work1'],
  ] as const)('%j %s → %s', (verdict, label, expected) => {
    expect(formatCapacityLine(verdict, label)).toBe(expected);
  });
});
