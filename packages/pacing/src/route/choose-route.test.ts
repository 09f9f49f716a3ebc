import { describe, expect, it } from 'vitest';
import { DEFAULT_LANE_TIER } from '../constants';
import { InvalidInputError } from '../errors/invalid-input-error';
import { formatTime } from '../format';
import { computePace } from '../meter/compute-pace';
import {
  freeModel,
  inflightRecord,
  MINUTE,
  MONTH_MINUTES,
  makePool,
  meterWindow,
  NOW,
  paidModel,
  run,
  WEEK_MINUTES,
  windowResetting,
} from '../test-support/make-pool';
import type { PoolSnapshot, RouteTask } from '../types';
import { chooseRoute } from './choose-route';

const analyze: RouteTask = { lane: 'analyze', tier: 'medium', kind: 'single-run' };
const build: RouteTask = { lane: 'build', tier: 'high', kind: 'single-run' };

function pick(pools: readonly PoolSnapshot[], task: RouteTask = analyze, settings = {}) {
  return chooseRoute({ pools, task, now: NOW, settings });
}

describe('docs/routing.md worked examples', () => {
  it('(a) a weekly pool at +30 beats a monthly pool at +5', () => {
    const weekly = makePool('weekly', { windows: [meterWindow('weekly', 40, 70)] });
    const monthly = makePool('monthly', {
      pacingWindow: 'monthly',
      windows: [meterWindow('monthly', 45, 50)],
    });
    const decision = pick([monthly, weekly]);
    expect(decision.poolId).toBe('weekly');
    expect(decision.reason).toBe('most-behind capable pool (surplus 30)');
    expect(decision.candidates.map((row) => [row.poolId, Number(row.effectiveSurplus.toFixed(6))])).toEqual([
      ['weekly', 30],
      ['monthly', 5],
    ]);
  });

  it('(b) the monthly pool two hours from reset beats the weekly pool three days out (urgency)', () => {
    const monthElapsed = ((MONTH_MINUTES - 120) / MONTH_MINUTES) * 100;
    const weekElapsed = ((WEEK_MINUTES - 3 * 24 * 60) / WEEK_MINUTES) * 100;
    const monthly = makePool('monthly', {
      pacingWindow: 'monthly',
      windows: [windowResetting('monthly', monthElapsed - 5, 120)],
    });
    const weekly = makePool('weekly', {
      windows: [windowResetting('weekly', weekElapsed - 30, 3 * 24 * 60)],
    });
    const decision = pick([weekly, monthly]);
    expect(decision.poolId).toBe('monthly');
    expect(decision.reason).toBe('expiring soon: monthly (urgency 1800, monthly resets in 2h 0m, surplus 5)');
    const [first, second] = decision.candidates;
    expect(first).toMatchObject({ poolId: 'monthly', urgent: true, expiringSoon: true, selectable: true });
    expect(second).toMatchObject({ poolId: 'weekly', urgent: false, expiringSoon: false, selectable: false });
    expect(second!.effectiveSurplus).toBeCloseTo(30, 9);
  });

  it('(b) only urgent pools are selectable while one can spend, even one behind its own pace', () => {
    // 10% of the week left (16h 48m) with 93% used: 3 points over pace, not draining (93 < 95).
    const expiring = makePool('expiring', { windows: [meterWindow('weekly', 93, 90)] });
    const healthy = makePool('healthy', { windows: [meterWindow('weekly', 30, 50)] });
    const decision = pick([healthy, expiring]);
    expect(decision.poolId).toBe('expiring');
    expect(decision.reason).toBe(
      'expiring soon: expiring (urgency -30, weekly resets in 16h 48m, surplus -3)',
    );
    expect(decision.candidates[1]).toMatchObject({ poolId: 'healthy', selectable: false });
  });

  it('breaks exact ties by pool id, whatever the input order', () => {
    const twin = (id: string) => makePool(id, { windows: [meterWindow('weekly', 30, 50)] });
    expect(pick([twin('b'), twin('a'), twin('c')]).poolId).toBe('a');
    expect(pick([twin('c'), twin('b')]).candidates.map((row) => row.poolId)).toEqual(['b', 'c']);
  });

  describe('(c) claude-code:acme at 81% of its 5-hour window with 23 minutes left', () => {
    // 2026-09-10: 34% of acme's weekly quota was left with 13% of the week to run.
    const acme = makePool('claude-code:acme', {
      windows: [windowResetting('five_hour', 81, 23), meterWindow('weekly', 66, 87)],
    });

    it('gets the high-tier task when no other pool is behind pace, with the last-mile trailer', () => {
      const ahead = makePool('claude-code', { windows: [meterWindow('weekly', 50, 40)] });
      const decision = pick([ahead, acme], build);
      expect(decision.poolId).toBe('claude-code:acme');
      expect(decision.candidates[0]).toMatchObject({ nearFiveHourLimit: true, nearFiveHourPenalty: false });
      expect(decision.candidates[0]!.fiveHourElapsedPct).toBeCloseTo(92.33, 2);
      expect(decision.reason).toBe(
        'expiring soon: claude-code:acme (urgency 161.5, weekly resets in 21h 50m, surplus 21)' +
          ' · last mile: claude-code:acme 81% of 5h, a limit mid-attempt goes back to the caller',
      );
    });

    it('is ordered after another pool that is behind pace (soft penalty above urgency)', () => {
      const behind = makePool('codex', {
        windows: [windowResetting('five_hour', 10, 200), meterWindow('weekly', 30, 50)],
      });
      const decision = pick([acme, behind], build);
      expect(decision.poolId).toBe('codex');
      expect(decision.reason).toBe('most-behind capable pool (surplus 20)');
      expect(decision.candidates[1]).toMatchObject({
        poolId: 'claude-code:acme',
        nearFiveHourPenalty: true,
        urgent: true,
        selectable: false,
      });
    });

    it('is not penalised by a pool behind pace that is itself ranked last (forecast over 100%)', () => {
      // `over` is 20 points behind its weekly pace but its 5-hour forecast passes the wall: ranked
      // last. `ahead` is 5 points ahead of pace. Without `over`, acme wins; `over` must not change that.
      const over = makePool('over', {
        windows: [windowResetting('five_hour', 60, 200), meterWindow('weekly', 30, 50)],
        spendRates: { five_hour: 5 },
      });
      const ahead = makePool('ahead', { windows: [meterWindow('weekly', 55, 50)] });
      const alone = pick([acme, ahead], build);
      const withOver = pick([acme, ahead, over], build);
      expect(alone.poolId).toBe('claude-code:acme');
      expect(withOver.candidates.at(-1)).toMatchObject({ poolId: 'over', forecastOverLimit: true });
      expect(withOver.poolId).toBe('claude-code:acme');
      expect(withOver.candidates[0]).toMatchObject({ nearFiveHourLimit: true, nearFiveHourPenalty: false });
      expect(withOver.reason).toBe(
        'expiring soon: claude-code:acme (urgency 161.5, weekly resets in 21h 50m, surplus 21)' +
          ' · last mile: claude-code:acme 81% of 5h, a limit mid-attempt goes back to the caller' +
          ' · forecast over 100% (still eligible; ranked last): over 120%',
      );
    });
  });

  it('(d) the four-pool `bullswarm pools` example picks grok for an analyze task', () => {
    const noMedium = { low: paidModel('haiku'), medium: null, high: paidModel('opus') };
    const claude = makePool('claude-code', {
      models: noMedium,
      meter: {
        status: 'cache',
        windows: [meterWindow('weekly', 31, 26.3), meterWindow('five_hour', 27, 54)],
      },
    });
    const acme = makePool('claude-code:acme', {
      models: noMedium,
      meter: {
        status: 'cache',
        windows: [meterWindow('weekly', 30, 65.6), meterWindow('five_hour', 15, 44)],
      },
    });
    const codex = makePool('codex', { enabled: false });
    const grok = makePool('grok', { meter: { status: 'cache', windows: [meterWindow('weekly', 74, 72.5)] } });
    const pools = [claude, acme, codex, grok];

    // The surplus column of the example, from the same state.
    expect(pools.map((p) => computePace(p, NOW).pace?.toFixed(1) ?? '-')).toEqual([
      '-4.7',
      '35.6',
      '-',
      '-1.5',
    ]);

    const decision = pick(pools, { lane: 'analyze', tier: DEFAULT_LANE_TIER.analyze, kind: 'single-run' });
    expect(decision.poolId).toBe('grok');
    // The spec's dry run printed -2.1, read a moment later than the pools lines; from the state
    // given here the surplus is 72.5 − 74 = -1.5.
    expect(decision.reason).toBe('most-behind capable pool (surplus -1.5)');
    expect(decision.forecastLine).toBe(
      'forecast: inflight=0 5h ?%->?% expected=5.67m rate=unmeasured basis=bootstrap',
    );
    expect(decision.rejected).toEqual([
      { poolId: 'claude-code', kind: 'ineligible', reason: 'no model for tier medium' },
      { poolId: 'claude-code:acme', kind: 'ineligible', reason: 'no model for tier medium' },
      { poolId: 'codex', kind: 'ineligible', reason: 'disabled' },
    ]);
  });

  describe('(e) draining', () => {
    const monthly = makePool('monthly', {
      pacingWindow: 'monthly',
      windows: [meterWindow('monthly', 96, 98)],
    });
    const grok = makePool('grok', { windows: [meterWindow('weekly', 99.5, 98.8)] });

    it('a monthly pool at 96% with 98% elapsed is not draining; grok at 99.5% with 98.8% elapsed is', () => {
      const decision = pick([grok, monthly]);
      const byId = Object.fromEntries(decision.candidates.map((row) => [row.poolId, row]));
      expect(byId.monthly).toMatchObject({ draining: false, expiringSoon: true, urgent: true });
      expect(byId.grok).toMatchObject({ draining: true, expiringSoon: true, urgent: false });
      expect(decision.candidates.map((row) => row.poolId)).toEqual(['monthly', 'grok']);
      expect(decision.reason).toBe(
        'expiring soon: monthly (urgency 100, monthly resets in 14h 24m, surplus 2)' +
          ' · expiring but draining (forecast >= 95% and past its clock): grok 99.5% (98.8% elapsed)',
      );
    });

    it('a single run still picks a draining pool when it is the only one, ordered last otherwise', () => {
      const decision = pick([grok]);
      expect(decision.poolId).toBe('grok');
      expect(decision.reason).toBe(
        'most-behind capable pool (surplus -0.7)' +
          ' · expiring but draining (forecast >= 95% and past its clock): grok 99.5% (98.8% elapsed)',
      );
    });

    it('a workflow step never gets a draining pool: no pool with quota to spare', () => {
      const decision = pick([grok], { ...analyze, kind: 'workflow-step' });
      const resetsAt = meterWindow('weekly', 99.5, 98.8).resetsAt!;
      expect(decision.poolId).toBeNull();
      expect(decision.reason).toBe(
        `no pool with quota to spare: grok nearly spent (forecast 99.5%) until ${formatTime(resetsAt)}`,
      );
      expect(decision.noPoolKind).toBe('quota');
      expect(decision.backAt).toBe(resetsAt);
      expect(decision.rejected).toEqual([
        {
          poolId: 'grok',
          kind: 'draining',
          reason: `nearly spent (forecast 99.5%) until ${formatTime(resetsAt)}`,
          backAt: resetsAt,
          window: 'weekly',
        },
      ]);
    });

    it('a workflow step moves off a draining pool and the trailer still names it', () => {
      const decision = pick([grok, monthly], { ...analyze, kind: 'workflow-step' });
      expect(decision.poolId).toBe('monthly');
      expect(decision.candidates.map((row) => row.poolId)).toEqual(['monthly']);
      expect(decision.rejected.map((r) => [r.poolId, r.kind])).toEqual([['grok', 'draining']]);
      expect(decision.reason).toContain(
        ' · expiring but draining (forecast >= 95% and past its clock): grok 99.5% (98.8% elapsed)',
      );
    });

    it('a single run orders a draining pool after a non-draining pool with a lower surplus', () => {
      // 80% used, 85% elapsed, 3 points/min: the forecast 80 + 3 × 5.67 = 97 is past its clock.
      const fast = makePool('fast', { windows: [meterWindow('weekly', 80, 85)], spendRates: { weekly: 3 } });
      const over = makePool('over', { windows: [meterWindow('weekly', 70, 50)] });
      const decision = pick([fast, over]);
      expect(decision.candidates.map((row) => [row.poolId, row.draining])).toEqual([
        ['over', false],
        ['fast', true],
      ]);
      expect(decision.candidates[1]!.effectiveSurplus).toBeGreaterThan(
        decision.candidates[0]!.effectiveSurplus,
      );
      expect(decision.reason).toBe(
        'most-behind capable pool (surplus -20) · draining (forecast >= 95% and past its clock): fast 97% (85% elapsed)',
      );
    });

    it('a draining pool that is not expiring soon gets the plain draining trailer', () => {
      const spender = makePool('spender', {
        windows: [meterWindow('weekly', 80, 70)],
        spendRates: { weekly: 1 },
        inflight: [inflightRecord('w1', 0, 10)],
      });
      const decision = pick([spender, makePool('idle', { windows: [meterWindow('weekly', 10, 20)] })]);
      // forecast = 80 + 1 × 10 (in flight) + 1 × 5.67 (this task) = 95.67 > 70 elapsed
      expect(decision.candidates.at(-1)).toMatchObject({ poolId: 'spender', draining: true });
      expect(decision.reason).toBe(
        'most-behind capable pool (surplus 10) · draining (forecast >= 95% and past its clock): spender 95.7% (70% elapsed)',
      );
    });
  });
});

describe('free models first', () => {
  const opencode = makePool('opencode', {
    models: { medium: freeModel('opencode/union-alpha') },
    windows: [windowResetting('five_hour', 12, 200)],
    inflight: [inflightRecord('a1', 1)],
  });
  const codex = makePool('codex', { windows: [meterWindow('weekly', 30, 70)] });
  const grok = makePool('grok', { windows: [meterWindow('weekly', 50, 62.3)] });

  it('prints the spec reason line word for word', () => {
    const decision = pick([grok, codex, opencode]);
    expect(decision.poolId).toBe('opencode');
    expect(decision.model).toBe('opencode/union-alpha');
    expect(decision.reason).toBe(
      'free pool first: opencode (free model opencode/union-alpha, 5h used 12.0%, 1 in flight) · metered pools ranked below free: codex 40.0, grok 12.3',
    );
    expect(decision.candidates.map((row) => [row.poolId, row.selectable])).toEqual([
      ['opencode', true],
      ['codex', false],
      ['grok', false],
    ]);
  });

  it('omits the metered part without metered candidates, prints `CLI default`, and drops `5h used` without a reading', () => {
    const cliDefault = makePool('zen', { models: { medium: freeModel(undefined) } });
    expect(pick([cliDefault]).reason).toBe('free pool first: zen (free model CLI default, 0 in flight)');
  });

  it('counts a standalone `free` segment in the model name as free', () => {
    const router = makePool('openrouter', { models: { medium: paidModel('openrouter/qwen:free') } });
    const decision = pick([router, codex]);
    expect(decision.poolId).toBe('openrouter');
    expect(decision.candidates[0]!.free).toBe(true);
  });

  it('a metered pool never wins while a free pool is in the top class, whatever its surplus', () => {
    const hoarder = makePool('hoarder', { windows: [meterWindow('weekly', 0, 95)] });
    const decision = pick([hoarder, opencode]);
    expect(decision.poolId).toBe('opencode');
    expect(decision.candidates[1]).toMatchObject({ poolId: 'hoarder', selectable: false });
    expect(decision.candidates[1]!.effectiveSurplus).toBeGreaterThan(90);
  });

  it('free sits above urgency: an expiring metered pool waits while free work is available', () => {
    const expiring = makePool('expiring', { windows: [windowResetting('weekly', 20, 60)] });
    expect(pick([expiring, opencode]).poolId).toBe('opencode');
  });

  describe('the reconciliation: free is a filter inside the forecast and last-mile classes', () => {
    const nearLine = makePool('opencode', {
      models: { medium: freeModel('opencode/union-alpha') },
      windows: [windowResetting('five_hour', 80, 100)],
    });

    it('a free pool near its 5-hour line yields to a healthy metered pool that is behind pace', () => {
      const decision = pick([nearLine, codex]);
      expect(decision.poolId).toBe('codex');
      expect(decision.reason).toBe('most-behind capable pool (surplus 40)');
      expect(decision.candidates[1]).toMatchObject({
        poolId: 'opencode',
        free: true,
        nearFiveHourPenalty: true,
      });
    });

    it('with no pool behind pace the free pool keeps the work, with the last-mile trailer', () => {
      const ahead = makePool('codex', { windows: [meterWindow('weekly', 80, 70)] });
      const decision = pick([nearLine, ahead]);
      expect(decision.poolId).toBe('opencode');
      expect(decision.reason).toBe(
        'free pool first: opencode (free model opencode/union-alpha, 5h used 80.0%, 0 in flight)' +
          ' · metered pools ranked below free: codex -10.0' +
          ' · last mile: opencode 80% of 5h, a limit mid-attempt goes back to the caller',
      );
    });

    it('a free pool forecast past its 5-hour wall is ordered after a metered pool', () => {
      const overWall = makePool('opencode', {
        models: { medium: freeModel('opencode/union-alpha') },
        windows: [windowResetting('five_hour', 60, 100)],
        spendRates: { five_hour: 10 },
      });
      const decision = pick([overWall, codex]);
      expect(decision.poolId).toBe('codex');
      expect(decision.reason).toBe(
        'most-behind capable pool (surplus 40) · forecast over 100% (still eligible; ranked last): opencode 116.7%',
      );
    });
  });
});

describe('long lists in the reason line', () => {
  it('names at most 10 pools per list, then `+<n> more`; candidates and rejections keep every pool', () => {
    const metered = Array.from({ length: 13 }, (_, i) =>
      makePool(`m${String(i).padStart(2, '0')}`, { windows: [meterWindow('weekly', 50 - i, 50)] }),
    );
    const spent = Array.from({ length: 12 }, (_, i) =>
      makePool(`s${String(i).padStart(2, '0')}`, { windows: [windowResetting('five_hour', 100, 30)] }),
    );
    const free = makePool('opencode', { models: { medium: freeModel('opencode/union-alpha') } });
    const decision = pick([...spent, ...metered, free]);
    const shown = Array.from(
      { length: 10 },
      (_, i) => `m${String(12 - i).padStart(2, '0')} ${(12 - i).toFixed(1)}`,
    );
    const gated = Array.from({ length: 10 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    expect(decision.reason).toBe(
      `free pool first: opencode (free model opencode/union-alpha, 0 in flight) · metered pools ranked below free: ${shown.join(', ')}, +3 more` +
        ` (burst-gated: ${gated.join(', ')}, +2 more)`,
    );
    expect(decision.candidates).toHaveLength(14);
    expect(decision.rejected).toHaveLength(12);
  });
});

describe('no pool', () => {
  const fiveHourReset = NOW + 30 * MINUTE;
  const weeklyReset = NOW + 2 * 24 * 60 * MINUTE;
  const poolA = makePool('pool-a', {
    windows: [windowResetting('five_hour', 100, 30), meterWindow('weekly', 20, 50)],
  });
  const poolB = makePool('pool-b', { windows: [windowResetting('weekly', 100, 2 * 24 * 60)] });

  it('lists every spent pool with its limit and returns at the earliest known reset', () => {
    const decision = pick([poolB, poolA]);
    expect(decision.poolId).toBeNull();
    expect(decision.reason).toBe(
      `no pool with quota to spare: pool-a at its 5-hour limit until ${formatTime(fiveHourReset)}; pool-b at its weekly limit until ${formatTime(weeklyReset)}`,
    );
    expect(decision.noPoolKind).toBe('quota');
    expect(decision.backAt).toBe(fiveHourReset);
    expect(decision.rejected[0]).toEqual({
      poolId: 'pool-a',
      kind: 'spent',
      reason: `at its 5-hour limit until ${formatTime(fiveHourReset)}`,
      backAt: fiveHourReset,
      spentWindows: ['five_hour'],
      window: 'five_hour',
    });
  });

  it('lists the spent/draining pools and the excluded ones, and is `unavailable` when a pool was excluded by the caller', () => {
    const excluded = makePool('opencode', { windows: [meterWindow('weekly', 10, 50)] });
    const disabled = makePool('codex', { enabled: false });
    const decision = pick([poolA, disabled, excluded], {
      ...analyze,
      excludedPools: [{ poolId: 'opencode', reason: 'probe: 404' }],
    });
    expect(decision.reason).toBe(
      `no pool with quota to spare: pool-a at its 5-hour limit until ${formatTime(fiveHourReset)} · excluded: opencode probe: 404`,
    );
    expect(decision.noPoolKind).toBe('unavailable');
    expect(decision.backAt).toBe(fiveHourReset);
  });

  it('is `quota` when the only other pools cannot run the task at all', () => {
    const disabled = makePool('codex', { enabled: false });
    expect(pick([poolA, disabled]).noPoolKind).toBe('quota');
  });

  it('names the latest reset when several windows are spent, and omits `until` when unknown', () => {
    const both = makePool('both', {
      windows: [windowResetting('five_hour', 100, 30), windowResetting('weekly', 100, 600)],
    });
    const unknown = makePool('unknown', {
      windows: [meterWindow('monthly', 100, null)],
      pacingWindow: 'monthly',
    });
    const decision = pick([both, unknown]);
    expect(decision.reason).toBe(
      `no pool with quota to spare: both at its weekly limit until ${formatTime(NOW + 600 * MINUTE)}; unknown at its monthly limit`,
    );
    expect(decision.backAt).toBe(NOW + 600 * MINUTE);
    expect(decision.rejected[0]!.spentWindows).toEqual(['five_hour', 'weekly']);
    // Listed shortest first, whatever order the meter reports them in.
    const reversed = makePool('reversed', {
      windows: [
        windowResetting('monthly', 100, 900),
        windowResetting('weekly', 100, 600),
        windowResetting('five_hour', 100, 30),
      ],
    });
    expect(pick([reversed]).rejected[0]).toMatchObject({
      spentWindows: ['five_hour', 'weekly', 'monthly'],
      window: 'monthly',
    });
  });

  it('says `no eligible pool` with every pool and its reason when none can run the task', () => {
    const decision = pick(
      [
        makePool('codex', { enabled: false }),
        makePool('grok', { lanes: ['build'] }),
        makePool('gemini', { models: { high: paidModel('pro') } }),
        makePool('opencode', { capabilities: [] }),
      ],
      { ...analyze, capabilities: ['web'] },
    );
    expect(decision.reason).toBe(
      'no eligible pool: codex disabled; gemini lacks capability web; grok no lane analyze; opencode lacks capability web',
    );
    expect(decision.noPoolKind).toBe('no-eligible-pool');
    expect(decision.backAt).toBeUndefined();
  });

  it('says `no eligible pool: no pools` for an empty pool list', () => {
    expect(pick([])).toMatchObject({
      poolId: null,
      reason: 'no eligible pool: no pools',
      noPoolKind: 'no-eligible-pool',
    });
  });

  it('a route that leaves no pool names each pool and its route reason', () => {
    const decision = pick(
      [makePool('codex', { providerFamily: 'openai' }), makePool('grok', { providerFamily: 'xai' })],
      {
        ...analyze,
        route: { providers: { use: ['anthropic'] } },
      },
    );
    expect(decision.reason).toBe(
      'no eligible pool: codex route: provider openai not in providers.use; grok route: provider xai not in providers.use',
    );
  });
});

describe('burst-gated', () => {
  it('names the pools left out for a spent window after the reason', () => {
    const decision = pick([
      makePool('pool-a', { windows: [windowResetting('five_hour', 100, 30)] }),
      makePool('pool-b', { windows: [windowResetting('weekly', 100.5, 600)] }),
      makePool('pool-c', { pacingWindow: 'monthly', windows: [windowResetting('monthly', 100, 6000)] }),
      makePool('codex', { windows: [meterWindow('weekly', 30, 70)] }),
    ]);
    expect(decision.poolId).toBe('codex');
    expect(decision.reason).toBe(
      'most-behind capable pool (surplus 40) (burst-gated: pool-a, pool-b at its weekly limit, pool-c at its monthly limit)',
    );
  });

  it('a window whose reset has passed is no longer spent', () => {
    const reset = makePool('pool-a', {
      windows: [{ kind: 'five_hour', usedPct: 100, windowMinutes: 300, resetsAt: NOW - MINUTE }],
    });
    const decision = pick([reset]);
    expect(decision.poolId).toBe('pool-a');
    expect(decision.candidates[0]!.fiveHourUsedPct).toBe(0);
  });
});

describe('pins', () => {
  const codex = makePool('codex', {
    windows: [windowResetting('five_hour', 44, 100), meterWindow('weekly', 50, 62.3)],
  });
  const grok = makePool('grok', { windows: [meterWindow('weekly', 10, 80)] });

  it.each([
    [
      { source: 'operator', shownAs: '--worker-pool' },
      'pinned to codex (--worker-pool) · surplus 12.3, 5h used 44%',
    ],
    [{ source: 'operator' }, 'pinned to codex (operator) · surplus 12.3, 5h used 44%'],
    [{ source: 'gate-retry' }, 'pinned to codex (the same pool (gate retry)) · surplus 12.3, 5h used 44%'],
    [
      { source: 'step-restart', shownAs: 'ignored' },
      'pinned to codex (step restart) · surplus 12.3, 5h used 44%',
    ],
  ] as const)('a %o pin says so', (how, reason) => {
    const decision = pick([grok, codex], { ...analyze, pin: { poolId: 'codex', ...how } });
    expect(decision.poolId).toBe('codex');
    expect(decision.reason).toBe(reason);
    expect(decision.candidates.map((row) => row.poolId)).toEqual(['codex']);
    expect(decision.rejected).toEqual([{ poolId: 'grok', kind: 'route', reason: 'not the pinned pool' }]);
  });

  it('prints `-` for an unknown surplus and omits 5h without a reading', () => {
    const unmetered = makePool('answerer');
    const decision = pick([unmetered], {
      ...analyze,
      pin: { poolId: 'answerer', source: 'operator', shownAs: '--worker-pool' },
    });
    expect(decision.reason).toBe('pinned to answerer (--worker-pool) · surplus -');
  });

  it('a pin to an unknown pool picks nothing', () => {
    const decision = pick([grok], { ...analyze, pin: { poolId: 'nope', source: 'step-restart' } });
    expect(decision).toMatchObject({
      poolId: null,
      reason: 'pinned to nope (step restart): unknown pool',
      noPoolKind: 'no-eligible-pool',
    });
  });

  it('a pin ignores the route, the caller exclusions and draining', () => {
    const draining = makePool('grok', { windows: [meterWindow('weekly', 99.5, 98.8)] });
    const decision = pick([draining, codex], {
      ...analyze,
      kind: 'workflow-step',
      route: { pools: { avoid: ['grok'] } },
      excludedPools: [{ poolId: 'grok', reason: 'probe: 404' }],
      pin: { poolId: 'grok', source: 'operator', shownAs: '--worker-pool' },
    });
    expect(decision.poolId).toBe('grok');
    expect(decision.reason).toBe(
      'pinned to grok (--worker-pool) · surplus -0.7' +
        ' · expiring but draining (forecast >= 95% and past its clock): grok 99.5% (98.8% elapsed)',
    );
  });

  it('a pin must still pass the hard checks: a spent pinned pool comes back as quota', () => {
    const spent = makePool('grok', { windows: [windowResetting('weekly', 100, 90)] });
    const decision = pick([spent, codex], { ...analyze, pin: { poolId: 'grok', source: 'gate-retry' } });
    expect(decision).toMatchObject({
      poolId: null,
      reason: `pinned to grok (the same pool (gate retry)): at its weekly limit until ${formatTime(NOW + 90 * MINUTE)}`,
      noPoolKind: 'quota',
      backAt: NOW + 90 * MINUTE,
    });
    expect(decision.rejected.map((r) => [r.poolId, r.kind])).toEqual([
      ['codex', 'route'],
      ['grok', 'spent'],
    ]);
  });

  it('a disabled pinned pool is no eligible pool', () => {
    const decision = pick([makePool('grok', { enabled: false })], {
      ...analyze,
      pin: { poolId: 'grok', source: 'operator', shownAs: '--worker-pool' },
    });
    expect(decision).toMatchObject({
      poolId: null,
      reason: 'pinned to grok (--worker-pool): disabled',
      noPoolKind: 'no-eligible-pool',
    });
  });
});

describe('a pin on a pool excluded evenPinned', () => {
  const grok = makePool('grok', { windows: [meterWindow('weekly', 10, 80)] });
  const codex = makePool('codex', { windows: [meterWindow('weekly', 50, 62.3)] });

  it('is no pick, unavailable, naming the reason; an exclusion without evenPinned is skipped by a pin', () => {
    const pin = { poolId: 'grok', source: 'operator', shownAs: '--worker-pool' } as const;
    const hard = pick([grok, codex], {
      ...analyze,
      pin,
      excludedPools: [{ poolId: 'grok', reason: 'connector grok is not installed', evenPinned: true }],
    });
    expect(hard).toMatchObject({
      poolId: null,
      reason: 'pinned to grok (--worker-pool): connector grok is not installed',
      candidates: [],
      noPoolKind: 'unavailable',
      rejected: [
        { poolId: 'codex', kind: 'route', reason: 'not the pinned pool' },
        { poolId: 'grok', kind: 'excluded', reason: 'connector grok is not installed' },
      ],
    });
    const soft = pick([grok, codex], {
      ...analyze,
      pin,
      excludedPools: [{ poolId: 'grok', reason: 'sign-in failed in credential group grok' }],
    });
    expect(soft.poolId).toBe('grok');
  });

  it('unpinned, evenPinned changes nothing: the pool is left out like any excluded one', () => {
    const excludedPools = [{ poolId: 'grok', reason: 'probe: 404' }];
    const plain = pick([grok, codex], { ...analyze, excludedPools });
    const even = pick([grok, codex], {
      ...analyze,
      excludedPools: [{ ...excludedPools[0]!, evenPinned: true }],
    });
    expect(even).toEqual(plain);
    expect(plain.poolId).toBe('codex');
  });
});

describe('in-flight load', () => {
  const weekly = [meterWindow('weekly', 40, 50)];

  it('charges the flat penalty per record without a measured rate (3 by default)', () => {
    const busy = makePool('busy', {
      windows: weekly,
      inflight: [inflightRecord('a', 1), inflightRecord('b', 2, 10)],
    });
    const row = pick([busy]).candidates[0]!;
    expect(row.inflightCharge).toBe(6);
    expect(row.effectiveSurplus).toBeCloseTo(4, 9);
  });

  it('uses the configured flat penalty, and 0 turns it off', () => {
    const busy = makePool('busy', {
      windows: weekly,
      inflight: [inflightRecord('a', 1), inflightRecord('b', 2)],
    });
    expect(pick([busy], analyze, { inflightPenaltyPct: 5 }).candidates[0]!.inflightCharge).toBe(10);
    const off = pick([busy], analyze, { inflightPenaltyPct: 0 }).candidates[0]!;
    expect(off.inflightCharge).toBe(0);
    expect(off.effectiveSurplus).toBeCloseTo(10, 9);
  });

  it('charges rate × remaining minutes when measured, with no floor, and the flat penalty for untimed records', () => {
    const measured = makePool('measured', {
      windows: weekly,
      spendRates: { weekly: 0.1 },
      inflight: [
        inflightRecord('timed', 10, 30), // 20 minutes left → 2 points
        inflightRecord('overdue', 20, 5), // past its estimate → 0
        inflightRecord('untimed', 5), // unknown duration → flat 3
      ],
      runs: [
        run('measured', 'medium', 8),
        run('measured', 'medium', 12),
        run('measured', 'medium', 10, 'stalled'),
      ],
    });
    const row = pick([measured]).candidates[0]!;
    expect(row.inflightCharge).toBeCloseTo(5, 9);
    expect(row.expectedMinutes).toBe(10);
    expect(row.estimateSource).toBe('recorded');
    expect(row.candidateCharge).toBeCloseTo(1, 9);
    expect(row.effectiveSurplus).toBeCloseTo(10 - 5 - 1, 9);
    // The pacing forecast carries only rate-based charges: 40 + 2 + 1.
    expect(row.forecastPacingPct).toBeCloseTo(43, 9);
    expect(pick([measured]).forecastLine).toBe(
      'forecast: inflight=3 5h ?%->?% expected=10.00m rate=0.100/min basis=recorded n=2',
    );
  });

  it('projects the 5-hour window at the 5-hour rate', () => {
    const pool = makePool('codex', {
      windows: [windowResetting('five_hour', 40, 120), ...weekly],
      spendRates: { five_hour: 0.5 },
      inflight: [inflightRecord('timed', 2, 12), inflightRecord('untimed', 1)],
    });
    const decision = pick([pool], build);
    const row = decision.candidates[0]!;
    expect(row.projectedFiveHourPct).toBeCloseTo(45, 9);
    expect(row.forecastFiveHourPct).toBeCloseTo(51, 9);
    expect(decision.forecastLine).toBe(
      'forecast: inflight=2 5h 45%->51% expected=12.00m rate=unmeasured basis=bootstrap',
    );
  });

  it('a busier pool yields to a quieter one at similar pace, and the reason says so', () => {
    const busy = makePool('codex', {
      windows: [meterWindow('weekly', 30, 50)],
      inflight: [inflightRecord('a', 1), inflightRecord('b', 2), inflightRecord('c', 3)],
    });
    const quiet = makePool('grok', { windows: [meterWindow('weekly', 35, 50)] });
    const decision = pick([busy, quiet]);
    expect(decision.poolId).toBe('grok');
    expect(decision.reason).toBe(
      'most-behind capable pool (surplus 15) · preferred over busier: codex (3 in flight)',
    );
  });

  it('does not claim `preferred over busier` when the busier pool would have lost anyway', () => {
    const busy = makePool('codex', {
      windows: [meterWindow('weekly', 30, 50)],
      inflight: [inflightRecord('a', 1)],
    });
    const better = makePool('grok', { windows: [meterWindow('weekly', 10, 50)] });
    expect(pick([busy, better]).reason).toBe('most-behind capable pool (surplus 40)');
  });
});

describe('assignments, routes and exclusions', () => {
  const codex = makePool('codex', { providerFamily: 'openai', windows: [meterWindow('weekly', 30, 50)] });
  const grok = makePool('grok', { providerFamily: 'xai', windows: [meterWindow('weekly', 45, 50)] });
  const claude = makePool('claude-code', {
    providerFamily: 'anthropic',
    windows: [meterWindow('weekly', 10, 50)],
  });

  it('an explicit tier assignment wins among selectable pools', () => {
    const decision = pick([codex, grok], build, { assignments: { high: 'grok' } });
    expect(decision.poolId).toBe('grok');
    expect(decision.reason).toBe('tier assignment: grok for high (strategy assign) · surplus 5');
  });

  it('an assignment never bypasses the free filter', () => {
    const free = makePool('opencode', { models: { high: freeModel('opencode/big-pickle-free') } });
    expect(pick([codex, grok, free], build, { assignments: { high: 'grok' } }).poolId).toBe('opencode');
  });

  it('applies the route as hard filters and summarises it in the reason', () => {
    const decision = pick([codex, grok, claude], {
      ...analyze,
      route: {
        providers: { avoid: ['anthropic'] },
        pools: { use: ['codex', 'grok'] },
        independentOf: [{ step: 'write-docs', providerFamilies: ['openai'] }],
      },
    });
    expect(decision.poolId).toBe('grok');
    expect(decision.reason).toBe(
      'most-behind capable pool (surplus 5) · route: providers.avoid=anthropic; pools.use=codex,grok; independentOf=write-docs(openai)',
    );
    expect(decision.rejected).toEqual([
      { poolId: 'claude-code', kind: 'route', reason: 'route: provider anthropic in providers.avoid' },
      { poolId: 'codex', kind: 'route', reason: 'route: independent of write-docs (openai)' },
    ]);
  });

  it.each([
    [{ providers: { use: ['claude-code'] } }, 'claude-code'], // a connector id counts as a provider name
    [{ providers: { use: ['openai'] } }, 'codex'],
    [{ pools: { avoid: ['claude-code', 'codex'] } }, 'grok'],
    [{ providers: { avoid: ['codex', 'anthropic'] } }, 'grok'],
  ])('route %j picks %s', (route, expected) => {
    expect(pick([codex, grok, claude], { ...analyze, route }).poolId).toBe(expected);
  });

  it('names the caller exclusions in the reason', () => {
    const decision = pick([codex, grok, claude], {
      ...analyze,
      excludedPools: [
        { poolId: 'claude-code', reason: 'probe: 404' },
        { poolId: 'codex', reason: 'auth: credential group openai' },
      ],
    });
    expect(decision.poolId).toBe('grok');
    expect(decision.reason).toBe(
      'most-behind capable pool (surplus 5) · excluded: claude-code probe: 404; codex auth: credential group openai',
    );
    expect(decision.rejected.map((r) => r.kind)).toEqual(['excluded', 'excluded']);
  });

  it('uses display labels in reason lines and ids in rows', () => {
    const labelled = makePool('claude-code:acme', {
      label: 'acme',
      windows: [meterWindow('weekly', 10, 50)],
    });
    const decision = pick([labelled, makePool('codex', { enabled: false })], {
      ...analyze,
      excludedPools: [{ poolId: 'codex', reason: 'never shown: disabled first' }],
    });
    expect(decision.candidates[0]).toMatchObject({ poolId: 'claude-code:acme', poolLabel: 'acme' });
    expect(decision.rejected).toEqual([{ poolId: 'codex', kind: 'ineligible', reason: 'disabled' }]);
  });
});

describe('bad input', () => {
  const pinA = { poolId: 'a', source: 'operator', shownAs: '--worker-pool' } as const;
  it.each([
    [{ now: Number.NaN }, 'now'],
    [{ task: { ...analyze, lane: 'review' } }, 'task.lane'],
    [{ task: { ...analyze, tier: '' } }, 'task.tier'],
    [{ task: { ...analyze, kind: 'batch' } }, 'task.kind'],
    [{ task: { ...analyze, pin: { poolId: 'a', source: 'manual' } } }, 'task.pin.source'],
    [{ pools: [makePool('a'), makePool('a')] }, 'pools[1].id'],
    [
      { pools: [makePool('a', { windows: [{ kind: 'weekly', usedPct: 10, windowMinutes: 0 }] })] },
      'pools[0].meter.windows[0].windowMinutes',
    ],
    [
      { pools: [makePool('a', { windows: [{ kind: 'weekly', usedPct: Number.NaN, windowMinutes: 10 }] })] },
      'pools[0].meter.windows[0].usedPct',
    ],
    [{ pools: [makePool('a', { spendRates: { weekly: -1 } })] }, 'pools[0].spendRates.weekly'],
    [
      { pools: [makePool('a', { inflight: [{ id: 'x', startedAt: NOW, expectedMinutes: -2 }] })] },
      'pools[0].inflight[0].expectedMinutes',
    ],
    [{ settings: { inflightPenaltyPct: -1 } }, 'settings.inflightPenaltyPct'],
    [{ pools: 'a' }, 'pools'],
    // Shapes, for callers in plain JavaScript: a field, not a bare TypeError.
    [{ task: undefined }, 'task'],
    [{ task: { ...analyze, capabilities: 'tests' } }, 'task.capabilities'],
    [{ task: { ...analyze, route: { pools: { use: 'a' } } } }, 'task.route.pools.use'],
    [
      { task: { ...analyze, route: { independentOf: [{ step: 's' }] } } },
      'task.route.independentOf[0].providerFamilies',
    ],
    [{ task: { ...analyze, excludedPools: ['a'] } }, 'task.excludedPools[0]'],
    [{ pools: [null] }, 'pools[0]'],
    [{ pools: [makePool('a', { enabled: 'yes' as unknown as boolean })] }, 'pools[0].enabled'],
    [{ pools: [{ ...makePool('a'), lanes: undefined }] }, 'pools[0].lanes'],
    [{ pools: [{ ...makePool('a'), models: undefined }] }, 'pools[0].models'],
    [{ pools: [{ ...makePool('a'), meter: undefined }] }, 'pools[0].meter'],
    [
      { pools: [makePool('a', { meter: { status: 'fresh', windows: [] } as never })] },
      'pools[0].meter.status',
    ],
    [
      { pools: [makePool('a', { windows: [{ kind: 'daily', usedPct: 10, windowMinutes: 1440 }] as never })] },
      'pools[0].meter.windows[0].kind',
    ],
    [
      { pools: [makePool('a', { windows: [{ kind: 'weekly', usedPct: -5, windowMinutes: 10 }] })] },
      'pools[0].meter.windows[0].usedPct',
    ],
    [{ pools: [{ ...makePool('a'), inflight: undefined }] }, 'pools[0].inflight'],
    [{ pools: [{ ...makePool('a'), runs: undefined }] }, 'pools[0].runs'],
    // A pin checks every pool too, not only the pinned one.
    [{ pools: [makePool('a'), makePool('a')], task: { ...analyze, pin: pinA } }, 'pools[1].id'],
    [
      {
        pools: [makePool('a'), makePool('b', { spendRates: { weekly: -1 } })],
        task: { ...analyze, pin: pinA },
      },
      'pools[1].spendRates.weekly',
    ],
  ])('%j is rejected naming %s', (patch, field) => {
    const input = { pools: [makePool('a')], task: analyze, now: NOW, ...patch } as Parameters<
      typeof chooseRoute
    >[0];
    let caught: unknown;
    try {
      chooseRoute(input);
    } catch (error) {
      caught = error;
    }
    expect(InvalidInputError.isInstance(caught)).toBe(true);
    expect((caught as InvalidInputError).field).toBe(field);
    expect((caught as InvalidInputError).message).toMatch(
      new RegExp(`^Invalid ${field.replace(/[[\].]/g, '\\$&')}: expected `),
    );
  });
  it.each([null, undefined, 'pools'])('a non-object input (%j) is rejected naming input', (input) => {
    expect(() => chooseRoute(input as never)).toThrow(/^Invalid input: expected an object/);
  });
});

describe('an unknown surplus is never shown as 0', () => {
  it('most-behind, tier assignment and the metered list print `-` for a pool without a known pace', () => {
    const blind = makePool('blind', { windows: [meterWindow('weekly', 40, null)] });
    expect(pick([blind]).reason).toBe('most-behind capable pool (surplus -)');
    expect(pick([blind], analyze, { assignments: { medium: 'blind' } }).reason).toBe(
      'tier assignment: blind for medium (strategy assign) · surplus -',
    );
    const free = makePool('free', { models: { medium: freeModel('f/free') } });
    expect(pick([free, blind]).reason).toContain('metered pools ranked below free: blind -');
  });
});
