import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BURST_BLOCK_PCT, DEFAULT_INFLIGHT_PENALTY_PCT } from '../constants';
import { estimateDuration } from '../estimate/estimate-duration';
import { forecastWindow } from '../forecast/forecast-window';
import { inflightCharge } from '../forecast/inflight-charge';
import { computePace } from '../meter/compute-pace';
import { effectiveWindow } from '../meter/effective-window';
import { findWindow } from '../meter/find-window';
import { MINUTE, NOW } from '../test-support/make-pool';
import type {
  InflightRecord,
  Lane,
  MeterWindow,
  PoolSnapshot,
  RouteDecision,
  RouteSettings,
  RouteTask,
  RunSample,
  TierModel,
  WindowKind,
} from '../types';
import { chooseRoute } from './choose-route';
import { compareCandidates, sameClass } from './order-candidates';

const IDS = ['answerer', 'claude-code', 'claude-code:acme', 'codex', 'gemini', 'grok', 'opencode', 'zen'];
const TIERS = ['low', 'medium', 'high'];
const LENGTH: Record<WindowKind, number> = { five_hour: 300, weekly: 10_080, monthly: 43_200 };

const windowArb = (kind: WindowKind): fc.Arbitrary<MeterWindow> =>
  fc.record(
    {
      kind: fc.constant(kind),
      usedPct: fc.oneof(fc.integer({ min: 0, max: 110 }), fc.double({ min: 0, max: 105, noNaN: true })),
      windowMinutes: fc.constant(LENGTH[kind]),
      // From well before now (a reset that has passed) to a full window ahead.
      resetsAt: fc.integer({ min: -2 * LENGTH[kind], max: LENGTH[kind] }).map((m) => NOW + m * MINUTE),
    },
    { requiredKeys: ['kind', 'usedPct', 'windowMinutes'] },
  );

const tierModelArb: fc.Arbitrary<TierModel | null> = fc.oneof(
  fc.constant(null),
  fc.record({
    model: fc.constantFrom('gpt-5', 'opus', 'openrouter/qwen:free', 'union-alpha'),
    free: fc.boolean(),
  }),
  fc.constant({ free: true }),
);

const inflightArb: fc.Arbitrary<InflightRecord> = fc.record(
  {
    id: fc.string({ maxLength: 4 }),
    startedAt: fc.integer({ min: 0, max: 120 }).map((m) => NOW - m * MINUTE),
    expectedMinutes: fc.double({ min: 0, max: 60, noNaN: true }),
  },
  { requiredKeys: ['id', 'startedAt'] },
);

const poolArb = (id: string): fc.Arbitrary<PoolSnapshot> =>
  fc
    .record({
      enabled: fc.boolean(),
      lanes: fc.subarray<Lane>(['analyze', 'build', 'chore']),
      capabilities: fc.subarray(['web', 'mcp']),
      models: fc.record({ low: tierModelArb, medium: tierModelArb, high: tierModelArb }),
      pacingWindow: fc.constantFrom('weekly' as const, 'monthly' as const),
      unmetered: fc.boolean(),
      windows: fc.tuple(
        fc.option(windowArb('five_hour'), { nil: undefined }),
        fc.option(windowArb('weekly'), { nil: undefined }),
        fc.option(windowArb('monthly'), { nil: undefined }),
      ),
      rates: fc.record(
        {
          five_hour: fc.double({ min: 0, max: 2, noNaN: true }),
          weekly: fc.double({ min: 0, max: 0.2, noNaN: true }),
          monthly: fc.double({ min: 0, max: 0.05, noNaN: true }),
        },
        { requiredKeys: [] },
      ),
      inflight: fc.array(inflightArb, { maxLength: 3 }),
      runMinutes: fc.array(
        fc.tuple(fc.constantFrom(...TIERS), fc.integer({ min: 0, max: 40 }), fc.boolean()),
        {
          maxLength: 4,
        },
      ),
      family: fc.constantFrom('anthropic', 'openai', 'xai'),
    })
    .map((g) => {
      const windows = g.windows.filter((w): w is MeterWindow => w !== undefined);
      const runs: RunSample[] = g.runMinutes.map(([tier, minutes, stalled]) => ({
        poolId: id,
        tier,
        startedAt: NOW - (minutes + 60) * MINUTE,
        endedAt: NOW - 60 * MINUTE,
        stalled,
        outcome: stalled ? 'stalled' : 'ok',
      }));
      return {
        id,
        connectorId: id.split(':')[0]!,
        providerFamily: g.family,
        credentialGroup: id,
        enabled: g.enabled,
        lanes: g.lanes,
        capabilities: g.capabilities,
        models: g.models,
        pacingWindow: g.pacingWindow,
        hasFiveHourWindow: windows.some((w) => w.kind === 'five_hour'),
        meter: { status: g.unmetered ? 'unmetered' : 'live', windows },
        spendRates: g.rates,
        inflight: g.inflight,
        runs,
      } satisfies PoolSnapshot;
    });

const poolsArb = fc
  .uniqueArray(fc.constantFrom(...IDS), { minLength: 0, maxLength: IDS.length })
  .chain((ids) => fc.tuple(...ids.map(poolArb)));

const taskArb: fc.Arbitrary<RouteTask> = fc.record(
  {
    lane: fc.constantFrom<Lane>('analyze', 'build', 'chore'),
    tier: fc.constantFrom(...TIERS),
    kind: fc.constantFrom('single-run' as const, 'workflow-step' as const),
    capabilities: fc.subarray(['web', 'mcp'], { maxLength: 1 }),
    pin: fc.record({
      poolId: fc.constantFrom(...IDS, 'unknown-pool'),
      source: fc.constantFrom('operator' as const, 'step-restart' as const, 'gate-retry' as const),
    }),
    excludedPools: fc.array(
      fc.record({ poolId: fc.constantFrom(...IDS), reason: fc.constant('probe: 404') }),
      {
        maxLength: 2,
      },
    ),
    route: fc.record(
      {
        providers: fc.record({ avoid: fc.subarray(['anthropic', 'openai']) }),
        pools: fc.record({ use: fc.subarray(IDS, { minLength: 1 }) }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['lane', 'tier', 'kind'] },
);

const settingsArb: fc.Arbitrary<RouteSettings> = fc.record(
  {
    inflightPenaltyPct: fc.constantFrom(0, 3, 10),
    assignments: fc.record({ high: fc.constantFrom(...IDS) }, { requiredKeys: [] }),
    bootstrapMinutes: fc.record(
      { medium: fc.constantFrom(1, 7.5), custom: fc.constant(9) },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

const decide = (pools: readonly PoolSnapshot[], task: RouteTask, settings = {}): RouteDecision =>
  chooseRoute({ pools, task, now: NOW, settings });

const isSpent = (pool: PoolSnapshot) =>
  pool.meter.status !== 'unmetered' &&
  pool.meter.windows.some((w) => effectiveWindow(w, NOW).usedPct >= BURST_BLOCK_PCT);

const params = { numRuns: 400 };

describe('chooseRoute properties', () => {
  it('never picks a disabled pool, one with a spent window, or one that cannot run the task', () => {
    fc.assert(
      fc.property(poolsArb, taskArb, settingsArb, (pools, task, settings) => {
        const decision = decide(pools, task, settings);
        if (decision.poolId === null) return;
        const chosen = pools.find((p) => p.id === decision.poolId)!;
        expect(chosen.enabled).toBe(true);
        expect(isSpent(chosen)).toBe(false);
        expect(chosen.lanes).toContain(task.lane);
        expect(chosen.models[task.tier]).toBeTruthy();
        for (const capability of task.capabilities ?? []) expect(chosen.capabilities).toContain(capability);
        if (task.pin === undefined) {
          expect(task.excludedPools?.some((e) => e.poolId === chosen.id) ?? false).toBe(false);
          if (task.kind === 'workflow-step') expect(decision.candidates[0]!.draining).toBe(false);
        }
      }),
      params,
    );
  });

  it('a pin returns that pool or none', () => {
    fc.assert(
      fc.property(poolsArb, taskArb, (pools, task) => {
        fc.pre(task.pin !== undefined);
        const decision = decide(pools, task);
        expect([task.pin!.poolId, null]).toContain(decision.poolId);
        expect(decision.candidates.length).toBeLessThanOrEqual(1);
        if (decision.poolId !== null) expect(decision.reason.startsWith(`pinned to `)).toBe(true);
      }),
      params,
    );
  });

  it('picks a free pool whenever one is in the top forecast/last-mile class', () => {
    fc.assert(
      fc.property(poolsArb, taskArb, settingsArb, (pools, task, settings) => {
        const { candidates } = decide(pools, { ...task, pin: undefined }, settings);
        const chosen = candidates[0];
        if (chosen === undefined) return;
        const classKey = (row: (typeof candidates)[number]) =>
          [row.draining, row.forecastOverLimit, row.nearFiveHourPenalty].map(Number).join('');
        const top = candidates.map(classKey).sort()[0];
        const freeInTop = candidates.some((row) => row.free && classKey(row) === top);
        expect(chosen.free).toBe(freeInTop);
        if (candidates.some((row) => row.free && row.selectable)) expect(chosen.free).toBe(true);
        // Every candidate and rejection accounts for each pool exactly once.
        const seen = [
          ...candidates.map((r) => r.poolId),
          ...decide(pools, { ...task, pin: undefined }, settings).rejected.map((r) => r.poolId),
        ];
        expect(seen.sort()).toEqual(pools.map((p) => p.id).sort());
      }),
      params,
    );
  });

  it('returns candidates in compareCandidates order, selectable exactly in the top class', () => {
    fc.assert(
      fc.property(poolsArb, taskArb, settingsArb, (pools, task, settings) => {
        const { candidates } = decide(pools, task, settings);
        for (let i = 1; i < candidates.length; i++) {
          expect(compareCandidates(candidates[i - 1]!, candidates[i]!)).toBeLessThan(0);
        }
        const first = candidates[0];
        for (const row of candidates) {
          const sameTop =
            first !== undefined &&
            row.draining === first.draining &&
            row.forecastOverLimit === first.forecastOverLimit &&
            row.nearFiveHourPenalty === first.nearFiveHourPenalty &&
            row.free === first.free &&
            row.urgent === first.urgent;
          expect(row.selectable).toBe(sameTop);
          if (first !== undefined) expect(sameClass(row, first)).toBe(sameTop);
        }
      }),
      params,
    );
  });

  // buildCandidateRow computes these numbers inline (no per-pool objects, for 10,000-pool
  // decisions); the exported helpers are the same rules one at a time, and must never drift apart.
  it('gives each candidate the numbers of computePace, estimateDuration, inflightCharge and forecastWindow', () => {
    fc.assert(
      fc.property(poolsArb, taskArb, settingsArb, (pools, task, settings) => {
        const { candidates } = decide(pools, task, settings);
        for (const row of candidates) {
          const pool = pools.find((p) => p.id === row.poolId)!;
          const pace = computePace(pool, NOW);
          expect([row.pace, row.pacingUsedPct, row.pacingElapsedPct]).toEqual([
            pace.pace,
            pace.usedPct,
            pace.elapsedPct,
          ]);
          const estimate = estimateDuration({
            runs: pool.runs,
            poolId: pool.id,
            tier: task.tier,
            bootstrapMinutes: settings.bootstrapMinutes,
          });
          expect([row.expectedMinutes, row.estimateSource, row.estimateSamples]).toEqual([
            estimate.minutes,
            estimate.source,
            estimate.samples,
          ]);
          const rate = pool.spendRates[pool.pacingWindow] ?? null;
          const charge = inflightCharge({
            inflight: pool.inflight,
            ratePerMinute: rate,
            penaltyPct: settings.inflightPenaltyPct ?? DEFAULT_INFLIGHT_PENALTY_PCT,
            now: NOW,
          });
          expect(row.inflightCharge).toBe(charge.total);
          expect(row.candidateCharge).toBe(rate === null ? 0 : rate * estimate.minutes);
          expect(row.effectiveSurplus).toBe((pace.pace ?? 0) - charge.total - row.candidateCharge);
          expect(row.forecastPacingPct).toBe(
            pace.usedPct === null ? null : pace.usedPct + charge.rateBased + row.candidateCharge,
          );
          const five = findWindow(pool.meter, 'five_hour');
          const fiveHour = forecastWindow({
            usedPct: five === null ? null : effectiveWindow(five, NOW).usedPct,
            ratePerMinute: pool.spendRates.five_hour ?? null,
            inflight: pool.inflight,
            candidateMinutes: estimate.minutes,
            now: NOW,
          });
          expect([row.projectedFiveHourPct, row.forecastFiveHourPct]).toEqual([
            fiveHour.projectedPct,
            fiveHour.forecastPct,
          ]);
        }
      }),
      params,
    );
  });

  it('does not depend on the order of the input pools', () => {
    fc.assert(
      fc.property(
        poolsArb.chain((pools) =>
          fc.tuple(fc.constant(pools), fc.shuffledSubarray(pools, { minLength: pools.length })),
        ),
        taskArb,
        settingsArb,
        ([pools, shuffled], task, settings) => {
          expect(decide(shuffled, task, settings)).toEqual(decide(pools, task, settings));
        },
      ),
      params,
    );
  });

  it('gives the same output for the same input, and never mutates it', () => {
    fc.assert(
      fc.property(poolsArb, taskArb, settingsArb, (pools, task, settings) => {
        const before = structuredClone({ pools, task, settings });
        const first = decide(pools, task, settings);
        expect({ pools, task, settings }).toEqual(before);
        expect(decide(before.pools, before.task, before.settings)).toEqual(first);
      }),
      params,
    );
  });
});
