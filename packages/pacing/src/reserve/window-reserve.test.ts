import { describe, expect, it } from 'vitest';
import { capacityVerdict } from '../capacity/capacity-verdict';
import { InvalidInputError } from '../errors/invalid-input-error';
import { formatTime } from '../format';
import { computePace } from '../meter/compute-pace';
import { chooseRoute } from '../route/choose-route';
import { makePool, meterWindow, NOW, WEEK_MINUTES, windowResetting } from '../test-support/make-pool';
import type { PoolSnapshot, RouteTask, WindowKind } from '../types';
import { isValidReservePct, spentAtPct, usableUsedPct } from './window-reserve';

const analyze: RouteTask = { lane: 'analyze', tier: 'medium', kind: 'single-run' };

function pick(pools: readonly PoolSnapshot[], task: RouteTask = analyze) {
  return chooseRoute({ pools, task, now: NOW });
}

describe('the reserve formula: used′ = used × 100 / (100 − r), surplus = elapsed − used′', () => {
  it.each([
    // used, reserve, elapsed → usable used, surplus
    [34, 15, 50, 40, 10],
    [34, 0, 50, 34, 16],
    [0, 20, 30, 0, 30],
    [45, 10, 50, 50, 0],
    [72, 20, 95, 90, 5],
    [85, 15, 90, 100, -10],
    [27, 12.5, 40, 30.857142857, 9.142857143],
  ])(
    'used %d%% with a %d%% reserve, %d%% elapsed → %d%% of the usable part, surplus %d',
    (used, reserve, elapsed, usable, surplus) => {
      expect(usableUsedPct(used, reserve)).toBeCloseTo(usable, 6);
      const pool = makePool('p', {
        windows: [meterWindow('weekly', used, elapsed)],
        ...(reserve === 0 ? {} : { reserves: { weekly: reserve } }),
      });
      const pace = computePace(pool, NOW);
      expect(pace.usedPct).toBe(used);
      expect(pace.usableUsedPct).toBeCloseTo(usable, 6);
      expect(pace.reservePct).toBe(reserve);
      expect(pace.pace).toBeCloseTo(surplus, 3);
    },
  );

  it('spends at 100 − reserve', () => {
    expect(spentAtPct(0)).toBe(100);
    expect(spentAtPct(15)).toBe(85);
    expect(spentAtPct(90)).toBe(10);
  });

  it.each([
    [0, true],
    [15, true],
    [12.5, true],
    [90, true],
    [0.1, true],
    [12.55, false],
    [-1, false],
    [90.1, false],
    [Number.NaN, false],
    ['15', false],
  ])('a reserve of %s is valid: %s', (value, valid) => {
    expect(isValidReservePct(value)).toBe(valid);
  });
});

describe('routing with reserves: each window kind', () => {
  const cases: [WindowKind, PoolSnapshot, string][] = [
    [
      'five_hour',
      makePool('kept', {
        windows: [meterWindow('five_hour', 81, 50), meterWindow('weekly', 10, 60)],
        reserves: { five_hour: 20 },
      }),
      'kept inside its 20% 5-hour reserve',
    ],
    [
      'weekly',
      makePool('kept', { windows: [meterWindow('weekly', 86, 90)], reserves: { weekly: 15 } }),
      'kept inside its 15% weekly reserve',
    ],
    [
      'monthly',
      makePool('kept', {
        pacingWindow: 'monthly',
        windows: [meterWindow('monthly', 70, 80)],
        reserves: { monthly: 30 },
      }),
      'kept inside its 30% monthly reserve',
    ],
  ];

  it.each(cases)('a pool inside its %s reserve is left out like a spent window', (kind, kept, gated) => {
    const other = makePool('other', { windows: [meterWindow('weekly', 60, 50)] });
    const decision = pick([kept, other]);
    expect(decision.poolId).toBe('other');
    expect(decision.reason).toBe(`most-behind capable pool (surplus -10) (burst-gated: ${gated})`);
    const rejection = decision.rejected.find((r) => r.poolId === 'kept');
    expect(rejection).toMatchObject({ kind: 'spent', window: kind, spentWindows: [kind] });
    expect(rejection?.reservePct).toBeGreaterThan(0);
    expect(rejection?.backAt).toBe(kept.meter.windows.find((w) => w.kind === kind)?.resetsAt);
  });

  it.each(cases)(
    'alone inside its %s reserve: no pool with quota, back at the reset',
    (kind, kept, gated) => {
      const decision = pick([kept]);
      const resetsAt = kept.meter.windows.find((w) => w.kind === kind)!.resetsAt!;
      expect(decision.poolId).toBeNull();
      expect(decision.noPoolKind).toBe('quota');
      expect(decision.backAt).toBe(resetsAt);
      expect(decision.reason).toBe(`no pool with quota to spare: ${gated} until ${formatTime(resetsAt)}`);
    },
  );

  it('the same reading below the reserve line is a candidate, and one at 100% is at its limit', () => {
    const below = makePool('kept', { windows: [meterWindow('weekly', 84.9, 90)], reserves: { weekly: 15 } });
    expect(pick([below]).poolId).toBe('kept');
    const full = makePool('kept', { windows: [meterWindow('weekly', 100, 90)], reserves: { weekly: 15 } });
    const decision = pick([full]);
    expect(decision.reason).toMatch(/^no pool with quota to spare: kept at its weekly limit until /);
    expect(decision.rejected[0]?.reservePct).toBeUndefined();
  });

  it('a window whose reset has passed is fresh again, reserve or not', () => {
    const reset = makePool('kept', {
      windows: [{ kind: 'weekly', usedPct: 99, windowMinutes: WEEK_MINUTES, resetsAt: NOW - 60_000 }],
      reserves: { weekly: 15 },
    });
    expect(pick([reset]).poolId).toBe('kept');
  });
});

describe('a reserve changes the pick', () => {
  it('+16 beats +12 without a reserve; with a 15% weekly reserve the first pool has only +10', () => {
    const a = makePool('a', { windows: [meterWindow('weekly', 34, 50)] });
    const b = makePool('b', { windows: [meterWindow('weekly', 38, 50)] });
    expect(pick([a, b])).toMatchObject({ poolId: 'a', reason: 'most-behind capable pool (surplus 16)' });
    const reserved = { ...a, reserves: { weekly: 15 } };
    const decision = pick([reserved, b]);
    expect(decision).toMatchObject({ poolId: 'b', reason: 'most-behind capable pool (surplus 12)' });
    expect(decision.candidates.map((row) => [row.poolId, Number(row.effectiveSurplus.toFixed(6))])).toEqual([
      ['b', 12],
      ['a', 10],
    ]);
    expect(decision.candidates[1]).toMatchObject({ pacingUsedPct: 34, pacingReservePct: 15 });
  });

  it('urgency divides the reduced surplus: an expiring pool whose reserve eats its surplus loses', () => {
    // 12 hours left of the week: 92.9% elapsed. Used 80% → +12.9; with a 10% reserve 88.9% of
    // the usable part → +4.0, urgency 4.0 / (720 / 10080) = 56.
    const expiring = makePool('expiring', { windows: [windowResetting('weekly', 80, 720)] });
    const withoutReserve = pick([expiring]).candidates[0]!;
    expect(withoutReserve.urgency).toBeCloseTo((((WEEK_MINUTES - 720) / WEEK_MINUTES) * 100 - 80) * 14, 6);
    const reserved = pick([{ ...expiring, reserves: { weekly: 10 } }]).candidates[0]!;
    const elapsed = ((WEEK_MINUTES - 720) / WEEK_MINUTES) * 100;
    expect(reserved.pace).toBeCloseTo(elapsed - 80 / 0.9, 6);
    expect(reserved.urgency).toBeCloseTo((elapsed - 80 / 0.9) * 14, 6);
  });

  it('the near-5h-limit line sits at 75% of the usable 5-hour window', () => {
    const pool = makePool('p', {
      windows: [meterWindow('five_hour', 61, 50), meterWindow('weekly', 10, 50)],
      reserves: { five_hour: 20 },
    });
    // 61 / 0.8 = 76.25% of the usable part: at the line. Without the reserve 61% is below it.
    expect(pick([pool]).candidates[0]).toMatchObject({ nearFiveHourLimit: true, fiveHourUsedPct: 61 });
    expect(pick([{ ...pool, reserves: {} }]).candidates[0]?.nearFiveHourLimit).toBe(false);
  });
});

describe('a pin may use the reserve', () => {
  const kept = makePool('kept', {
    windows: [meterWindow('five_hour', 10, 50), meterWindow('weekly', 90, 95)],
    reserves: { weekly: 15 },
  });
  const other = makePool('other', { windows: [meterWindow('weekly', 10, 50)] });

  it('a pinned pool inside its reserve is picked, and the reason says it uses the reserve', () => {
    const decision = pick([kept, other], {
      ...analyze,
      pin: { poolId: 'kept', source: 'operator', shownAs: '--worker-pool' },
    });
    expect(decision.poolId).toBe('kept');
    expect(decision.reason).toBe(
      'pinned to kept (--worker-pool) · surplus -10.9, 5h used 10% · uses its 15% weekly reserve (pinned)' +
        ' · draining (forecast >= 95% and past its clock): kept 105.9% (95% elapsed)',
    );
  });

  it('a pinned pool outside its reserve says nothing about it', () => {
    const fresh = { ...kept, meter: { status: 'live' as const, windows: [meterWindow('weekly', 50, 95)] } };
    const decision = pick([fresh], { ...analyze, pin: { poolId: 'kept', source: 'step-restart' } });
    expect(decision.reason).not.toContain('reserve');
  });

  it('a pinned pool at 100% is still refused', () => {
    const full = { ...kept, meter: { status: 'live' as const, windows: [meterWindow('weekly', 100, 95)] } };
    const decision = pick([full], {
      ...analyze,
      pin: { poolId: 'kept', source: 'operator', shownAs: '--worker-pool' },
    });
    expect(decision.poolId).toBeNull();
    expect(decision.reason).toMatch(/^pinned to kept \(--worker-pool\): at its weekly limit until /);
  });
});

describe('the capacity verdict counts the reserve as used', () => {
  it.each([
    [60, 0, 'ok', 40, 'weekly window 40% free (above 25%)'],
    [60, 20, 'low', 20, 'weekly window 20% free (after its 20% reserve) (low at or below 25%)'],
    [70, 25, 'critical', 5, 'weekly window 5% free (after its 25% reserve) (critical at or below 10%)'],
    [95, 15, 'critical', 0, 'weekly window 0% free (after its 15% reserve) (critical at or below 10%)'],
  ])('weekly used %s with a reserve of %s → %s', (used, reserve, verdict, free, reason) => {
    const result = capacityVerdict({
      meter: { status: 'live', windows: [meterWindow('weekly', used, 50)] },
      now: NOW,
      ...(reserve === 0 ? {} : { reserves: { weekly: reserve } }),
    });
    expect(result).toMatchObject({
      verdict,
      freePct: free,
      reason,
    });
  });
});

describe('validation', () => {
  it.each([
    [{ weekly: 95 }, 'pools[0].reserves.weekly'],
    [{ weekly: 12.34 }, 'pools[0].reserves.weekly'],
    [{ daily: 10 }, 'pools[0].reserves'],
  ])('refuses reserves %j naming %s', (reserves, field) => {
    const pool = { ...makePool('p', { windows: [meterWindow('weekly', 1, 50)] }), reserves } as PoolSnapshot;
    let caught: unknown;
    try {
      pick([pool]);
    } catch (error) {
      caught = error;
    }
    expect(InvalidInputError.isInstance(caught)).toBe(true);
    expect((caught as InvalidInputError).message).toContain(field);
  });
});
