import type { MeterWindow } from '@bullswarm/pacing';
import { describe, expect, it } from 'vitest';
import { manualReadingAdvice, mergeManualReading } from './manual-reading';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const HOUR = 3_600_000;
const fiveHour = (usedPct: number, resetsAt?: number): MeterWindow => ({
  kind: 'five_hour',
  usedPct,
  windowMinutes: 300,
  ...(resetsAt === undefined ? {} : { resetsAt }),
});
const weekly = (usedPct: number, resetsAt?: number): MeterWindow => ({
  kind: 'weekly',
  usedPct,
  windowMinutes: 10_080,
  ...(resetsAt === undefined ? {} : { resetsAt }),
});
const monthly = (usedPct: number, resetsAt?: number): MeterWindow => ({
  kind: 'monthly',
  usedPct,
  windowMinutes: 43_200,
  ...(resetsAt === undefined ? {} : { resetsAt }),
});

describe('mergeManualReading (meters set over the earlier manual reading)', () => {
  it('keeps the windows the new reading does not mention, in 5h, weekly, monthly order', () => {
    const earlier = [fiveHour(10, NOW + 2 * HOUR), monthly(30, NOW + 200 * HOUR)];
    const merged = mergeManualReading([weekly(40, NOW + 50 * HOUR)], earlier, NOW);
    expect(merged.windows).toEqual([fiveHour(10, NOW + 2 * HOUR), weekly(40, NOW + 50 * HOUR), earlier[1]]);
    expect(merged.kept).toEqual(earlier);
    expect(merged.dropped).toEqual([]);
    expect(merged.resetKept).toEqual([]);
  });

  it('a window given again replaces the earlier one, keeping its reset while that is still ahead', () => {
    const merged = mergeManualReading([weekly(47)], [weekly(45, NOW + 50 * HOUR)], NOW);
    expect(merged.windows).toEqual([weekly(47, NOW + 50 * HOUR)]);
    expect(merged.resetKept).toEqual(['weekly']);
    expect(merged.kept).toEqual([]);
    // A reset that has passed is not carried over: the window restarted.
    expect(mergeManualReading([weekly(5)], [weekly(45, NOW - HOUR)], NOW).windows).toEqual([weekly(5)]);
    // A reset given wins over the earlier one.
    expect(mergeManualReading([weekly(5, NOW + HOUR)], [weekly(45, NOW + 50 * HOUR)], NOW).windows).toEqual([
      weekly(5, NOW + HOUR),
    ]);
  });

  it('drops an earlier window whose reset has passed (its share no longer holds), and says so', () => {
    const spent = fiveHour(90, NOW - HOUR);
    const merged = mergeManualReading([weekly(40, NOW + 50 * HOUR)], [spent, monthly(20)], NOW);
    expect(merged.windows).toEqual([weekly(40, NOW + 50 * HOUR), monthly(20)]);
    expect(merged.dropped).toEqual([spent]);
    expect(merged.kept).toEqual([monthly(20)]);
  });

  it('with no earlier reading it is the reading given', () => {
    expect(mergeManualReading([weekly(40)], [], NOW)).toEqual({
      windows: [weekly(40)],
      kept: [],
      dropped: [],
      resetKept: [],
    });
  });
});

describe('manualReadingAdvice (a reading that leaves its pool unpaced says what to add)', () => {
  const weeklyPool = { ref: 'grok', pacingWindow: 'weekly', subscriptionResets: false } as const;

  it('nothing to say when the pacing window has a share and a reset', () => {
    expect(manualReadingAdvice([weekly(40, NOW + HOUR)], weeklyPool)).toEqual([]);
    // strategy set-subscription --resets-at supplies the reset.
    expect(manualReadingAdvice([weekly(40)], { ...weeklyPool, subscriptionResets: true })).toEqual([]);
  });

  it('the pacing window without a reset: add --resets-at', () => {
    expect(manualReadingAdvice([weekly(40)], weeklyPool)).toEqual([
      'grok is paced on its weekly window and this reading does not say when it resets, so its pace is unknown (surplus -): add --resets-at weekly=<iso>, e.g. --resets-at weekly=2026-12-01T00:00:00Z',
    ]);
  });

  it('a monthly reading on a pool paced weekly points at strategy set-subscription --quota-window monthly', () => {
    expect(manualReadingAdvice([monthly(40, NOW + HOUR)], weeklyPool)).toEqual([
      'grok is paced on its weekly window, which this monthly reading has no share of (pools shows weekly used ?%): if its quota resets monthly, run `bullswarm strategy set-subscription grok --quota-window monthly`; else add --weekly <pct>',
    ]);
    expect(
      manualReadingAdvice([weekly(40, NOW + HOUR)], { ...weeklyPool, pacingWindow: 'monthly' })[0],
    ).toContain('run `bullswarm strategy set-subscription grok --quota-window weekly`');
  });

  it('only a 5-hour share: add the pacing window and its reset', () => {
    expect(manualReadingAdvice([fiveHour(10, NOW + HOUR)], weeklyPool)).toEqual([
      'grok is paced on its weekly window, which this reading has no share of, so its pace is unknown (surplus -): add --weekly <pct> --resets-at weekly=<iso>',
    ]);
  });
});
