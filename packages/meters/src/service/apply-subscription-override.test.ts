import { InvalidInputError, type PoolMeter } from '@bullswarm/pacing';
import { describe, expect, it } from 'vitest';
import { applySubscriptionOverride } from './apply-subscription-override';
import { backoffDelayMs } from './backoff';

const meter = (windows: PoolMeter['windows'], status: PoolMeter['status'] = 'live'): PoolMeter => ({
  status,
  windows,
  readAt: 1,
});

describe('applySubscriptionOverride', () => {
  const noReset = meter([
    { kind: 'five_hour', usedPct: 10, resetsAt: 5, windowMinutes: 300 },
    { kind: 'monthly', usedPct: 40, windowMinutes: 43_200 },
  ]);

  it('supplies the reset of the chosen window when the provider gave usage but no reset', () => {
    const out = applySubscriptionOverride(noReset, {
      quotaWindow: 'monthly',
      resetsAt: '2026-12-01T00:00:00Z',
    });
    expect(out.windows).toEqual([
      { kind: 'five_hour', usedPct: 10, resetsAt: 5, windowMinutes: 300 },
      { kind: 'monthly', usedPct: 40, resetsAt: Date.parse('2026-12-01T00:00:00Z'), windowMinutes: 43_200 },
    ]);
    expect(noReset.windows[1]).not.toHaveProperty('resetsAt'); // pure: input untouched
    expect(
      applySubscriptionOverride(noReset, { quotaWindow: 'monthly', resetsAt: 123 }).windows[1]?.resetsAt,
    ).toBe(123);
  });

  it('leaves the meter unchanged when the provider gave a reset, the window is absent, no reset is given, or unmetered', () => {
    const withReset = meter([{ kind: 'weekly', usedPct: 1, resetsAt: 99, windowMinutes: 10_080 }]);
    expect(applySubscriptionOverride(withReset, { quotaWindow: 'weekly', resetsAt: 5 })).toBe(withReset);
    expect(applySubscriptionOverride(noReset, { quotaWindow: 'weekly', resetsAt: 5 })).toBe(noReset);
    expect(applySubscriptionOverride(noReset, { quotaWindow: 'monthly' })).toBe(noReset);
    const unmetered = meter([{ kind: 'monthly', usedPct: 1, windowMinutes: 43_200 }], 'unmetered');
    expect(applySubscriptionOverride(unmetered, { quotaWindow: 'monthly', resetsAt: 5 })).toBe(unmetered);
  });

  it.each([
    ['weekly', '2026-09-01T00:00:00Z', '2026-09-10T12:00:00Z', '2026-09-15T00:00:00.000Z'],
    ['weekly', '2026-09-01T00:00:00Z', '2026-09-08T00:00:00Z', '2026-09-15T00:00:00.000Z'],
    ['monthly', '2026-01-31T09:00:00Z', '2026-02-10T00:00:00Z', '2026-02-28T09:00:00.000Z'],
    ['monthly', '2026-01-31T09:00:00Z', '2026-03-01T00:00:00Z', '2026-03-31T09:00:00.000Z'],
    ['monthly', '2025-11-15T00:00:00Z', '2026-09-10T12:00:00Z', '2026-09-15T00:00:00.000Z'],
    ['monthly', '2026-12-01T00:00:00Z', '2026-09-10T12:00:00Z', '2026-12-01T00:00:00.000Z'],
  ] as const)(
    'with now, a passed %s override reset %s is carried forward past %s → %s',
    (kind, resetsAt, now, expected) => {
      const input = meter([{ kind, usedPct: 3, windowMinutes: kind === 'weekly' ? 10_080 : 43_200 }]);
      const out = applySubscriptionOverride(input, { quotaWindow: kind, resetsAt }, Date.parse(now));
      expect(new Date(out.windows[0]?.resetsAt ?? 0).toISOString()).toBe(expected);
    },
  );

  it('names the field of an invalid reset', () => {
    expect(() => applySubscriptionOverride(noReset, { quotaWindow: 'monthly', resetsAt: 'soon' })).toThrow(
      InvalidInputError,
    );
    expect(() => applySubscriptionOverride(noReset, { quotaWindow: 'monthly', resetsAt: 'soon' })).toThrow(
      /subscription\.resetsAt/,
    );
  });
});

describe('backoffDelayMs', () => {
  it.each([
    [1, 30_000],
    [2, 60_000],
    [5, 480_000],
    [6, 900_000],
    [60, 900_000],
  ])('after %i failures: %i ms', (failures, ms) => {
    expect(backoffDelayMs(failures)).toBe(ms);
  });

  it('takes custom bounds', () => {
    expect(backoffDelayMs(3, { initialMs: 1_000, maxMs: 3_000 })).toBe(3_000);
  });
});
