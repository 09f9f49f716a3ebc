import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors/invalid-input-error';
import { MINUTE, makePool, meterWindow, NOW, WEEK_MINUTES } from '../test-support/make-pool';
import type { MeterWindow } from '../types';
import { computePace } from './compute-pace';
import { effectiveWindow, minutesUntilReset } from './effective-window';
import { elapsedPctOfEffective, windowElapsedPct } from './window-elapsed-pct';

const week = WEEK_MINUTES * MINUTE;

describe('effectiveWindow', () => {
  it('returns a running window unchanged', () => {
    const w: MeterWindow = { kind: 'weekly', usedPct: 40, windowMinutes: WEEK_MINUTES, resetsAt: NOW + 1 };
    expect(effectiveWindow(w, NOW)).toBe(w);
  });

  it('returns a window with no known reset unchanged', () => {
    const w: MeterWindow = { kind: 'monthly', usedPct: 100, windowMinutes: 43_200 };
    expect(effectiveWindow(w, NOW)).toBe(w);
  });

  it.each([
    ['exactly at the reset', NOW, NOW + week],
    ['a minute after the reset', NOW - MINUTE, NOW - MINUTE + week],
    ['two and a half weeks after the reset', NOW - 2.5 * week, NOW + 0.5 * week],
    ['exactly three weeks after the reset', NOW - 3 * week, NOW + week],
  ])('%s: reads 0%% with the next reset after now', (_label, resetsAt, next) => {
    const w: MeterWindow = { kind: 'weekly', usedPct: 100, windowMinutes: WEEK_MINUTES, resetsAt };
    expect(effectiveWindow(w, NOW)).toEqual({
      kind: 'weekly',
      usedPct: 0,
      windowMinutes: WEEK_MINUTES,
      resetsAt: next,
    });
  });

  it('rejects a window without a positive length when it has to advance it', () => {
    const w: MeterWindow = { kind: 'weekly', usedPct: 1, windowMinutes: 0, resetsAt: NOW - 1 };
    expect(() => effectiveWindow(w, NOW)).toThrow(InvalidInputError);
  });

  it('minutesUntilReset reads the effective window', () => {
    expect(
      minutesUntilReset(
        { kind: 'five_hour', usedPct: 3, windowMinutes: 300, resetsAt: NOW - 60 * MINUTE },
        NOW,
      ),
    ).toBe(240);
    expect(minutesUntilReset({ kind: 'five_hour', usedPct: 3, windowMinutes: 300 }, NOW)).toBeNull();
  });
});

describe('windowElapsedPct', () => {
  it.each([
    [WEEK_MINUTES * 0.275, 72.5],
    [WEEK_MINUTES, 0],
    [WEEK_MINUTES * 2, 0], // a reset further out than one window clamps to 0
    [0.5, (1 - 0.5 / WEEK_MINUTES) * 100],
  ])('%d minutes left of a week → %d%% elapsed', (left, expected) => {
    const w: MeterWindow = {
      kind: 'weekly',
      usedPct: 10,
      windowMinutes: WEEK_MINUTES,
      resetsAt: NOW + left * MINUTE,
    };
    expect(windowElapsedPct(w, NOW)).toBeCloseTo(expected, 9);
  });

  it('elapsedPctOfEffective agrees with windowElapsedPct on an effective window', () => {
    const w: MeterWindow = {
      kind: 'weekly',
      usedPct: 10,
      windowMinutes: WEEK_MINUTES,
      resetsAt: NOW + 2772 * MINUTE,
    };
    expect(elapsedPctOfEffective(w, NOW)).toBe(windowElapsedPct(w, NOW));
  });

  it('is null without a reset and reads a passed reset as a fresh window', () => {
    expect(windowElapsedPct({ kind: 'weekly', usedPct: 10, windowMinutes: WEEK_MINUTES }, NOW)).toBeNull();
    const passed: MeterWindow = {
      kind: 'five_hour',
      usedPct: 90,
      windowMinutes: 300,
      resetsAt: NOW - 30 * MINUTE,
    };
    expect(windowElapsedPct(passed, NOW)).toBeCloseTo(10, 9);
  });
});

describe('computePace', () => {
  it('is elapsed% − used% of the pacing window', () => {
    const pool = makePool('grok', {
      windows: [meterWindow('five_hour', 99, 50), meterWindow('weekly', 74, 72.5)],
    });
    const result = computePace(pool, NOW);
    expect(result.pace).toBeCloseTo(-1.5, 9);
    expect(result.usedPct).toBe(74);
    expect(result.elapsedPct).toBeCloseTo(72.5, 9);
    expect(result.window?.kind).toBe('weekly');
  });

  it('reads the monthly window when the pool is paced monthly', () => {
    const pool = makePool('m', {
      pacingWindow: 'monthly',
      windows: [meterWindow('weekly', 10, 90), meterWindow('monthly', 45, 50)],
    });
    expect(computePace(pool, NOW).pace).toBeCloseTo(5, 9);
  });

  it.each([
    ['an unmetered meter', makePool('codex')],
    [
      'an unmetered meter that still lists windows',
      makePool('codex', { meter: { status: 'unmetered', windows: [meterWindow('weekly', 10, 50)] } }),
    ],
    ['no reading of the pacing window', makePool('claude', { windows: [meterWindow('five_hour', 10, 50)] })],
  ])('is null with %s', (_label, pool) => {
    expect(computePace(pool, NOW)).toEqual({
      pace: null,
      usedPct: null,
      usableUsedPct: null,
      reservePct: 0,
      elapsedPct: null,
      window: null,
    });
  });

  it('is null without a known reset, keeping the used share', () => {
    const pool = makePool('claude', { windows: [meterWindow('weekly', 30, null)] });
    expect(computePace(pool, NOW)).toMatchObject({ pace: null, usedPct: 30, elapsedPct: null });
  });

  it('reads a window whose reset has passed as 0% used', () => {
    const pool = makePool('claude', {
      windows: [{ kind: 'weekly', usedPct: 95, windowMinutes: WEEK_MINUTES, resetsAt: NOW - 0.25 * week }],
    });
    const result = computePace(pool, NOW);
    expect(result.usedPct).toBe(0);
    expect(result.pace).toBeCloseTo(25, 9);
  });
});
