import { describe, expect, it } from 'vitest';
import { MINUTE, NOW } from '../test-support/make-pool';
import { referenceChooseRoute } from '../test-support/reference/reference-choose-route';
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

// chooseRoute finds the winner and the reason's lists in linear scans and sorts the candidate rows
// only when `candidates` is read (choose-route.ts). The reference is the decision as it was before:
// every row built eagerly and all of them sorted with the comparator
// (src/test-support/reference/). Both must return the same decision — pick, reason, every row with
// every field in the same key order, the same order of rows, the same rejections — on seeded random
// pools built to hit every ordering key and many exact ties.

/** mulberry32: a small seeded generator, so every run checks the same pools. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LENGTH: Record<WindowKind, number> = { five_hour: 300, weekly: 10_080, monthly: 43_200 };
const LANES: Lane[] = ['analyze', 'build', 'chore'];
const TIERS = ['low', 'medium', 'high', 'custom'];
const FAMILIES = ['anthropic', 'openai', 'xai', 'google'];
// Ids that order differently by UTF-16 code unit than by locale or by code point.
const ODD_IDS = [
  'Zeta',
  'alpha',
  'éclair',
  'e\u0301clair',
  '\u{1F600}grin',
  '\uFF5Ewide',
  'a',
  'A',
  'a-1',
  'a_1',
];

function generator(seed: number) {
  const next = random(seed);
  const chance = (p: number) => next() < p;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  // Coarse values on purpose: whole percents and whole minutes make exact ties common.
  const pct = () => (chance(0.6) ? int(0, 105) : next() * 104);
  // Per decision: how often a tier's model is free (free pools come first, so a high share would
  // decide most picks by that key alone).
  const freeShare = pick([0, 0, 0.03, 0.25]);

  const window = (kind: WindowKind): MeterWindow => {
    const length = LENGTH[kind];
    const usedPct = chance(0.1) ? pick([0, 74.9, 75, 94, 95, 99.9, 100]) : pct();
    if (chance(0.08)) return { kind, usedPct, windowMinutes: length };
    // Mostly ahead of now; sometimes already passed (the window has reset), sometimes within the
    // expiring-soon lines (24 h weekly, 72 h monthly).
    const minutes = chance(0.15)
      ? -int(0, 2 * length)
      : chance(0.08)
        ? int(1, kind === 'monthly' ? 72 * 60 + 30 : 24 * 60 + 30)
        : int(1, length);
    return { kind, usedPct, windowMinutes: length, resetsAt: NOW + minutes * MINUTE };
  };

  const tierModel = (): TierModel | null => {
    if (chance(0.08)) return null;
    if (chance(freeShare)) {
      return chance(0.5)
        ? { model: pick(['openrouter/qwen:free', 'mimo-free']), free: false }
        : { free: true };
    }
    return { model: pick(['gpt-5', 'opus', 'grok-4', 'freedom']), free: false };
  };

  const pool = (id: string): PoolSnapshot => {
    const kinds = (['five_hour', 'weekly', 'monthly'] as const).filter(() => chance(0.8));
    const windows = kinds.map(window);
    if (chance(0.05) && windows.length > 0) windows.push({ ...windows[0]!, usedPct: pct() }); // a kind twice
    const rates: { five_hour?: number; weekly?: number; monthly?: number } = {};
    if (chance(0.5)) rates.five_hour = chance(0.2) ? 0 : next() * 2;
    if (chance(0.5)) rates.weekly = next() / 5;
    if (chance(0.5)) rates.monthly = next() / 20;
    const reserves: { five_hour?: number; weekly?: number; monthly?: number } = {};
    if (chance(0.15)) reserves.weekly = pick([0, 10, 12.5, 15]);
    if (chance(0.1)) reserves.five_hour = pick([0, 20]);
    if (chance(0.1)) reserves.monthly = pick([5, 30]);
    const inflight: InflightRecord[] = Array.from({ length: pick([0, 0, 1, 2, 3]) }, (_, k) => ({
      id: `${id}-w${k}`,
      startedAt: NOW - int(0, 60) * MINUTE,
      ...(chance(0.6) ? { expectedMinutes: pick([5, 10, 12.5]) } : {}),
    }));
    const runs: RunSample[] = Array.from({ length: pick([0, 1, 2, 4, 5]) }, (_, k) => {
      const endedAt = NOW - (k + 1) * 60 * MINUTE;
      const stalled = chance(0.15);
      return {
        poolId: chance(0.9) ? id : 'someone-else',
        tier: pick(TIERS),
        startedAt: endedAt - int(1, 30) * MINUTE,
        endedAt,
        stalled,
        outcome: stalled ? 'stalled' : pick(['ok', 'failed']),
      };
    });
    return {
      id,
      ...(chance(0.2) ? { label: `label-${id}` } : {}),
      connectorId: id.split(':')[0]!,
      providerFamily: pick(FAMILIES),
      credentialGroup: id,
      enabled: chance(0.92),
      lanes: LANES.filter(() => chance(0.85)),
      capabilities: ['web', 'mcp'].filter(() => chance(0.7)),
      models: { low: tierModel(), medium: tierModel(), high: tierModel(), custom: tierModel() },
      pacingWindow: chance(0.7) ? 'weekly' : 'monthly',
      hasFiveHourWindow: kinds.includes('five_hour'),
      meter: { status: chance(0.12) ? 'unmetered' : pick(['live', 'cache', 'stale', 'manual']), windows },
      spendRates: rates,
      ...(Object.keys(reserves).length > 0 || chance(0.05) ? { reserves } : {}),
      inflight,
      runs,
    };
  };

  /** `count` pools; a share are copies of another pool under a new id (their scores tie exactly). */
  const pools = (count: number): PoolSnapshot[] => {
    const list: PoolSnapshot[] = [];
    for (let i = 0; i < count; i++) {
      const id = i < ODD_IDS.length && chance(0.5) ? ODD_IDS[i]! : `pool-${int(0, 9)}${i}`;
      const twin = list.length > 0 && chance(0.25) ? pick(list) : undefined;
      list.push(
        twin === undefined
          ? pool(id)
          : {
              ...twin,
              id,
              credentialGroup: id,
              runs: twin.runs.map((run) => ({ ...run, poolId: run.poolId === twin.id ? id : run.poolId })),
            },
      );
    }
    // Input order must not matter: shuffle (Fisher–Yates on the seeded generator).
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  };

  const task = (ids: readonly string[]): RouteTask => {
    const excluded = ids.filter(() => chance(0.03)).map((poolId) => ({ poolId, reason: 'probe: 404' }));
    const route: NonNullable<RouteTask['route']> | undefined = chance(0.2)
      ? {
          providers: { avoid: FAMILIES.filter(() => chance(0.2)) },
          ...(chance(0.3) ? { pools: { use: ids.filter(() => chance(0.7)) } } : {}),
          ...(chance(0.2) ? { independentOf: [{ step: 'plan', providerFamilies: [pick(FAMILIES)] }] } : {}),
        }
      : undefined;
    return {
      lane: pick(LANES),
      tier: pick(TIERS),
      kind: chance(0.5) ? 'single-run' : 'workflow-step',
      ...(chance(0.3) ? { capabilities: ['web'] } : {}),
      ...(excluded.length > 0 ? { excludedPools: excluded } : {}),
      ...(route === undefined ? {} : { route }),
      ...(chance(0.05) && ids.length > 0
        ? { pin: { poolId: pick(ids), source: pick(['operator', 'step-restart', 'gate-retry'] as const) } }
        : {}),
    };
  };

  const settings = (ids: readonly string[], tier: string): RouteSettings => ({
    ...(chance(0.3) ? { inflightPenaltyPct: pick([0, 3, 10]) } : {}),
    ...(chance(0.4) && ids.length > 0
      ? { assignments: { [chance(0.8) ? tier : pick(TIERS)]: pick(ids) } }
      : {}),
    ...(chance(0.2) ? { bootstrapMinutes: { medium: 7.5, custom: 9 } } : {}),
  });

  return { pools, task, settings };
}

/** Parts of reason lines the random decisions must reach, each at least a few times. */
const REASON_PARTS = [
  'pinned to',
  'free pool first',
  'metered pools ranked below free',
  'expiring soon',
  'tier assignment',
  'most-behind capable pool',
  'last mile',
  'forecast over 100%',
  'expiring but draining',
  '· draining',
  'preferred over busier',
  'excluded:',
  'route:',
  'burst-gated',
  'more',
  'no eligible pool',
  'no pool with quota',
];

function both(pools: PoolSnapshot[], task: RouteTask, settings: RouteSettings) {
  const input = { pools, task, now: NOW, settings };
  return { fast: chooseRoute(input), reference: referenceChooseRoute(input) };
}

function expectSameDecision(fast: RouteDecision, reference: RouteDecision): void {
  // toEqual compares values (and tells -0 from 0); the JSON text also pins every key's order.
  expect(fast).toEqual(reference);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(reference));
}

describe('chooseRoute against the reference sort', () => {
  // Time limits here are vitest's only (large comparisons on a loaded machine), not timed tests.
  it('gives the decision of the eager reference on 600 seeded random decisions of 0–60 pools', {
    timeout: 300_000,
  }, () => {
    let picked = 0;
    let multi = 0;
    const clauses = new Map(REASON_PARTS.map((part) => [part, 0]));
    for (let seed = 1; seed <= 600; seed++) {
      const gen = generator(seed);
      const pools = gen.pools(seed % 61);
      const ids = pools.map((p) => p.id);
      const task = gen.task(ids);
      const { fast, reference } = both(pools, task, gen.settings(ids, task.tier));
      expectSameDecision(fast, reference);
      if (fast.poolId !== null) picked++;
      for (const part of REASON_PARTS)
        if (fast.reason.includes(part)) clauses.set(part, clauses.get(part)! + 1);
      if (fast.candidates.length > 1) multi++;
    }
    // The generator must exercise real orderings, not only empty or one-row decisions.
    expect(picked).toBeGreaterThan(300);
    expect(multi).toBeGreaterThan(250);
    for (const [part, count] of clauses) expect(count, part).toBeGreaterThanOrEqual(3);
  });

  it('gives the decision of the eager reference over 2,000 and 5,000 pools, single runs and workflow steps', {
    timeout: 300_000,
  }, () => {
    for (const [seed, count] of [
      [7001, 2_000],
      [7002, 2_000],
      [7003, 5_000],
    ] as const) {
      const gen = generator(seed);
      const pools = gen.pools(count);
      const ids = pools.map((p) => p.id);
      for (const kind of ['single-run', 'workflow-step'] as const) {
        const task = { ...gen.task(ids), kind, pin: undefined };
        const { fast, reference } = both(pools, task, gen.settings(ids, task.tier));
        expectSameDecision(fast, reference);
        expect(fast.candidates.length).toBeGreaterThan(count / 10);
      }
    }
  });

  it('orders exact ties by pool id (UTF-16 code units), whatever the input order', () => {
    const gen = generator(99);
    const base = gen.pools(1)[0]!;
    const ids = [...ODD_IDS, ...Array.from({ length: 40 }, (_, i) => `t${(i * 7919) % 41}`)];
    const twins = ids.map((id) => ({
      ...base,
      id,
      enabled: true,
      lanes: LANES,
      runs: base.runs.map((run) => ({ ...run, poolId: id })),
    }));
    const task: RouteTask = { lane: 'analyze', tier: 'medium', kind: 'single-run' };
    const { fast, reference } = both(twins, task, {});
    expectSameDecision(fast, reference);
    const order = fast.candidates.map((row) => row.poolId);
    expect(order).toEqual([...order].sort());
  });

  it('returns the same rows array every time candidates is read, in the decision’s key order', () => {
    const gen = generator(5);
    const pools = gen.pools(50);
    const { fast, reference } = both(pools, { lane: 'analyze', tier: 'medium', kind: 'single-run' }, {});
    expect(Object.keys(fast)).toEqual(Object.keys(reference));
    expect(fast.candidates).toBe(fast.candidates);
    expect({ ...fast }).toEqual(reference);
    expect(structuredClone(fast)).toEqual(reference);
  });

  // chooseRoute validates, checks and scores the usual pool in one read (screen-pool.ts) and sends
  // the rest through validatePool and the checks; pools listed by id never hash their ids
  // (pool-id-set.ts). These decisions take the pools sorted by id, and shapes that read alike but
  // are built differently: a property present but undefined, one on the prototype.
  it('gives the decision of the eager reference on 400 seeded decisions with pools sorted by id and odd shapes', {
    timeout: 300_000,
  }, () => {
    let picked = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const gen = generator(50_000 + seed);
      const pools = gen.pools(seed % 97).map((pool, i) => oddShape(pool, seed + i));
      if (seed % 4 !== 0) pools.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const ids = pools.map((p) => p.id);
      const task = gen.task(ids);
      const { fast, reference } = both(pools, task, gen.settings(ids, task.tier));
      expectSameDecision(fast, reference);
      if (fast.poolId !== null) picked++;
    }
    expect(picked).toBeGreaterThan(200);
  });

  it('throws what the reference throws for 600 seeded inputs with one or two bad pools', {
    timeout: 300_000,
  }, () => {
    const messages = new Set<string>();
    for (let seed = 1; seed <= 600; seed++) {
      const gen = generator(90_000 + seed);
      const pools = gen.pools(1 + (seed % 40)).map((pool, i) => oddShape(pool, seed * 7 + i));
      if (seed % 3 !== 0) pools.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const first = seed % pools.length;
      pools[first] = spoil(pools, first, seed);
      if (seed % 5 === 0 && pools.length > 2) {
        const second = (first + 1 + (seed % (pools.length - 1))) % pools.length;
        pools[second] = spoil(pools, second, seed + 1);
      }
      const ids = pools.map((p) => (typeof p === 'object' && p !== null ? String(p.id) : ''));
      const task = { ...gen.task(ids), pin: undefined };
      const input = { pools, task, now: NOW, settings: gen.settings(ids, task.tier) };
      const fast = outcome(() => chooseRoute(input));
      const reference = outcome(() => referenceChooseRoute(input));
      expect(fast, `seed ${seed}`).toEqual(reference);
      if ('error' in reference) messages.add(reference.error.split(':')[0]!);
    }
    // Invalid fields and the TypeError of a null record are both reached.
    expect(messages.size).toBeGreaterThan(20);
  });
});

/** The decision as JSON, or the error thrown: class, message and named field. */
function outcome(decide: () => RouteDecision): { decision: string } | { error: string; name: string } {
  try {
    return { decision: JSON.stringify(decide()) };
  } catch (error) {
    const e = error as Error & { field?: string };
    return { error: `${e.message}${e.field === undefined ? '' : ` [${e.field}]`}`, name: e.constructor.name };
  }
}

/**
 * The same pool built differently, so a property is read through another shape: an optional
 * number present but undefined, an in-flight record or window whose field sits on its prototype,
 * spend rates on a prototype too. Every one validates and decides as the plain pool does.
 */
function oddShape(pool: PoolSnapshot, seed: number): PoolSnapshot {
  switch (seed % 6) {
    case 0:
      return {
        ...pool,
        inflight: pool.inflight.map((record) =>
          record.expectedMinutes === undefined ? { ...record, expectedMinutes: undefined } : record,
        ),
      };
    case 1:
      return {
        ...pool,
        meter: {
          ...pool.meter,
          windows: pool.meter.windows.map((w) =>
            w.resetsAt === undefined ? { ...w, resetsAt: undefined } : w,
          ),
        },
      };
    case 2:
      return {
        ...pool,
        inflight: pool.inflight.map((record) =>
          record.expectedMinutes === undefined
            ? record
            : Object.assign(Object.create({ expectedMinutes: record.expectedMinutes }), {
                id: record.id,
                startedAt: record.startedAt,
              }),
        ),
      };
    case 3:
      return {
        ...pool,
        spendRates: Object.assign(Object.create({ weekly: 0.05 }), pool.spendRates),
        meter: {
          ...pool.meter,
          windows: pool.meter.windows.map((w) =>
            w.resetsAt === undefined
              ? w
              : Object.assign(Object.create({ resetsAt: w.resetsAt }), {
                  kind: w.kind,
                  usedPct: w.usedPct,
                  windowMinutes: w.windowMinutes,
                }),
          ),
        },
      };
    case 4:
      return { ...pool, spendRates: { five_hour: undefined, weekly: undefined, ...pool.spendRates } };
    default:
      return pool;
  }
}

/** Pool `i` with one defect `validatePool` refuses (or a null record, a TypeError in both). */
function spoil(pools: readonly PoolSnapshot[], i: number, seed: number): PoolSnapshot {
  const pool = pools[i]!;
  const window = pool.meter.windows[0] ?? { kind: 'weekly', usedPct: 10, windowMinutes: 10_080 };
  const record = pool.inflight[0] ?? { id: 'w', startedAt: NOW };
  const bad = (value: unknown) => value as never;
  const defects: (() => unknown)[] = [
    () => null,
    () => 5,
    () => [],
    () => ({ ...pool, id: '' }),
    () => ({ ...pool, id: 7 }),
    () => ({ ...pool, id: pools[(i + 1) % pools.length]!.id }),
    () => ({ ...pool, enabled: 'yes' }),
    () => ({ ...pool, lanes: 'analyze' }),
    () => ({ ...pool, capabilities: undefined }),
    () => ({ ...pool, models: null }),
    () => ({ ...pool, pacingWindow: 'daily' }),
    () => ({ ...pool, meter: null }),
    () => ({ ...pool, meter: { ...pool.meter, status: 'fresh' } }),
    () => ({ ...pool, meter: { ...pool.meter, windows: {} } }),
    () => ({ ...pool, meter: { ...pool.meter, windows: [null] } }),
    () => ({ ...pool, meter: { ...pool.meter, windows: [{ ...window, kind: 'hourly' }] } }),
    () => ({ ...pool, meter: { ...pool.meter, windows: [{ ...window, usedPct: -1 }] } }),
    () => ({ ...pool, meter: { ...pool.meter, windows: [{ ...window, usedPct: Number.NaN }] } }),
    () => ({ ...pool, meter: { ...pool.meter, windows: [{ ...window, windowMinutes: 0 }] } }),
    () => ({
      ...pool,
      meter: { ...pool.meter, windows: [{ ...window, resetsAt: Number.POSITIVE_INFINITY }] },
    }),
    () => ({ ...pool, meter: { ...pool.meter, windows: [{ ...window, resetsAt: bad('soon') }] } }),
    () => ({ ...pool, spendRates: null }),
    () => ({ ...pool, spendRates: { weekly: -1 } }),
    () => ({ ...pool, spendRates: { five_hour: Number.NaN } }),
    () => ({ ...pool, spendRates: { monthly: bad('fast') } }),
    () => ({ ...pool, reserves: { weekly: 95 } }),
    () => ({ ...pool, reserves: { daily: 5 } }),
    () => ({ ...pool, reserves: 5 }),
    () => ({ ...pool, inflight: null }),
    () => ({ ...pool, runs: undefined }),
    () => ({ ...pool, inflight: [null] }),
    () => ({ ...pool, inflight: [{ ...record, startedAt: bad('now') }] }),
    () => ({ ...pool, inflight: [{ ...record, expectedMinutes: -1 }] }),
    () => ({ ...pool, inflight: [{ ...record, expectedMinutes: Number.POSITIVE_INFINITY }] }),
  ];
  return defects[seed % defects.length]!() as PoolSnapshot;
}
