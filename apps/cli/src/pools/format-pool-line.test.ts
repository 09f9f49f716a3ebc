import type { PoolView } from '@bullswarm/dispatch/routing';
import { describe, expect, it } from 'vitest';
import { createColors } from '../output/color';
import {
  formatFiveHourColumn,
  formatFreeColumn,
  formatMeterColumn,
  formatMeterErrorDetail,
  formatStateColumn,
} from './format-pool-line';

const NOW = Date.parse('2026-11-30T12:00:00Z');

function view(overrides: Partial<PoolView> = {}): PoolView {
  return {
    id: 'sim:a',
    poolLabel: 'sim:a',
    connector: 'sim',
    account: 'a',
    enabled: true,
    command: null,
    cost: 1,
    lanes: ['analyze', 'build', 'chore'],
    models: { low: { model: 'x', free: false }, medium: { model: 'y', free: false }, high: null },
    meter: { status: 'live', windows: [], readAt: null },
    meterError: null,
    meterErrorDetail: null,
    meterHoldUntil: null,
    pacingWindow: 'weekly',
    pace: 10,
    usedPct: 40,
    elapsedPct: 50,
    inflight: 0,
    inflightCharge: 0,
    fiveHour: null,
    spendRates: {},
    effectiveSurplus: 10,
    forecastFiveHourPct: null,
    estimateSource: 'bootstrap',
    nearFiveHourPenalty: false,
    forecastOverLimit: false,
    forecastGated: false,
    draining: false,
    expiringSoon: false,
    urgency: null,
    resetsInMinutes: null,
    spentWindows: [],
    reserves: {},
    reservedWindows: [],
    problem: null,
    cli: null,
    state: 'ready',
    states: ['ready'],
    ...overrides,
  };
}

describe('formatFreeColumn', () => {
  it.each([
    ['no free tier', { low: { model: 'a', free: false }, high: null }, null],
    [
      'every served tier free with one model',
      { low: { model: 'echo', free: true }, medium: { model: 'echo', free: true }, high: null },
      'free=echo',
    ],
    [
      'every tier free, models differ',
      { low: { model: 'a', free: true }, medium: { model: 'b', free: true } },
      'free=low:a,medium:b',
    ],
    [
      'free on one tier only',
      { low: { model: 'a:free', free: true }, medium: { model: 'b', free: false } },
      'free=low:a:free',
    ],
    ['a free CLI default', { low: { model: null, free: true } }, 'free=default'],
  ])('%s', (_label, models, expected) => {
    expect(formatFreeColumn({ models: models as PoolView['models'] })).toBe(expected);
  });
});

describe('formatMeterColumn', () => {
  it.each<[string, Partial<PoolView>, string]>([
    ['live', {}, 'weekly used 40% elapsed 50%'],
    [
      'cache',
      { meter: { status: 'cache', windows: [], readAt: null } },
      'weekly used 40% elapsed 50% [cache]',
    ],
    [
      'manual',
      { meter: { status: 'manual', windows: [], readAt: null } },
      'weekly used 40% elapsed 50% [manual]',
    ],
    [
      'stale, holding',
      {
        meter: { status: 'stale', windows: [], readAt: null },
        meterError: 'http 429',
        meterHoldUntil: '2026-11-30T12:02:00Z',
      },
      'weekly used 40% elapsed 50% [stale · http 429, retry in 2m]',
    ],
    [
      'stale, hold over',
      {
        meter: { status: 'stale', windows: [], readAt: null },
        meterError: 'http 429',
        meterHoldUntil: '2026-11-30T11:00:00Z',
      },
      'weekly used 40% elapsed 50% [stale · http 429, retry now]',
    ],
    ['unknown numbers', { usedPct: null, elapsedPct: null }, 'weekly used ?% elapsed ?%'],
    ['unmetered', { meter: { status: 'unmetered', windows: [], readAt: null } }, 'unmetered'],
    [
      'never read, failing',
      {
        meter: { status: 'unmetered', windows: [], readAt: null },
        meterError: 'no meter file',
        meterHoldUntil: '2026-11-30T12:00:30Z',
      },
      'unmetered [no meter file, retry in 30s]',
    ],
  ])('%s', (_label, overrides, expected) => {
    expect(formatMeterColumn(view(overrides), NOW)).toBe(expected);
  });
});

describe('formatFiveHourColumn', () => {
  it('shows the projection only when in-flight work raises it', () => {
    expect(formatFiveHourColumn(view())).toBeNull();
    expect(formatFiveHourColumn(view({ fiveHour: { usedPct: 15, projectedPct: 15, elapsedPct: 44 } }))).toBe(
      '5h=15% (44% elapsed)',
    );
    expect(
      formatFiveHourColumn(view({ fiveHour: { usedPct: 15, projectedPct: 22.5, elapsedPct: null } })),
    ).toBe('5h=15%->22.5%');
  });
});

describe('formatStateColumn', () => {
  it.each<[string, Partial<PoolView>, string]>([
    ['ready', {}, 'ready'],
    ['disabled wins over a spent window', { states: ['disabled', 'burst-gated'] }, 'disabled'],
    [
      'unavailable',
      { states: ['unavailable'], problem: 'connector nosuch is not installed' },
      'UNAVAILABLE (connector nosuch is not installed)',
    ],
    [
      'burst-gated names each spent window',
      {
        states: ['burst-gated'],
        spentWindows: [
          { window: 'five_hour', until: '2026-11-30T13:00:00Z' },
          { window: 'weekly', until: null },
        ],
      },
      'BURST-GATED 5-hour until 2026-11-30T13:00:00Z, weekly',
    ],
    [
      'reserved names each window inside its reserve',
      {
        states: ['reserved', 'near-5h-limit'],
        reserves: { five_hour: 20, weekly: 15 },
        reservedWindows: [
          { window: 'five_hour', until: '2026-11-30T13:00:00Z', reservePct: 20 },
          { window: 'weekly', until: null, reservePct: 12.5 },
        ],
      },
      'RESERVED 5-hour (20% kept) until 2026-11-30T13:00:00Z, weekly (12.5% kept)',
    ],
    [
      'burst-gated wins over reserved',
      {
        states: ['burst-gated', 'reserved'],
        spentWindows: [{ window: 'five_hour', until: null }],
        reservedWindows: [{ window: 'weekly', until: null, reservePct: 15 }],
      },
      'BURST-GATED 5-hour',
    ],
    [
      'near-limit and expiring combine',
      { states: ['near-5h-limit', 'expiring-soon'], resetsInMinutes: 600, urgency: 123.45 },
      'NEAR-5H-LIMIT resets in 10h 0m EXPIRING-SOON urgency=123.5',
    ],
    [
      'draining, never a negative urgency',
      { states: ['draining'], resetsInMinutes: 600, usedPct: 99.5, urgency: -58.3 },
      'resets in 10h 0m DRAINING weekly used 99.5%',
    ],
  ])('%s', (_label, overrides, expected) => {
    expect(formatStateColumn(view(overrides))).toBe(expected);
  });

  it('colours the state only when asked', () => {
    expect(formatStateColumn(view(), createColors(true))).toBe('\u001b[32mready\u001b[39m');
  });
});

describe('formatMeterErrorDetail', () => {
  it('is one indented line with the full message, the short status without one, nothing without an error', () => {
    expect(
      formatMeterErrorDetail(
        view({ meterError: 'bad meter reading', meterErrorDetail: '/m.json: windows[0].resetsAt: x' }),
      ),
    ).toBe('  meter error: /m.json: windows[0].resetsAt: x');
    expect(formatMeterErrorDetail(view({ meterError: 'no meter file' }))).toBe(
      '  meter error: no meter file',
    );
    expect(formatMeterErrorDetail(view())).toBeNull();
  });
});
