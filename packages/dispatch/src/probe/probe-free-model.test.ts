import { isPidAlive } from '@bullswarm/connectors/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchTask } from '../dispatch/dispatch-task';
import type { DispatchEvent } from '../dispatch/dispatch-types';
import { routeTask } from '../route/route-task';
import { closeDispatchFixtures, createDispatchFixture, TEST_NOW } from '../test-support/dispatch-fixture';
import { PROBE_PROMPT, probeFreeModel } from './probe-free-model';

afterEach(closeDispatchFixtures);

const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];
const probes = (events: readonly DispatchEvent[]) =>
  events.filter((e): e is Extract<DispatchEvent, { type: 'probe.finished' }> => e.type === 'probe.finished');

/** A free pool (the sim's low tier is `sim/lite:free`) and a metered one whose low tier is paid. */
const pools = (freeScenario: unknown) => [
  { account: 'f', windows: weekly(40), scenario: { default: freeScenario } },
  { account: 'm', connector: 'sim-codex', windows: weekly(10), models: { low: 'sim/lite' } },
];

describe('the free-model liveness probe', () => {
  it('runs the PONG probe through the pool’s own CLI once, then serves it from the cache', async () => {
    const f = await createDispatchFixture(pools('ok'));
    const first = await dispatchTask(f.runtime, f.request({ lane: 'chore' }));
    expect(first).toMatchObject({ ok: true, poolId: 'sim:f', model: 'sim/lite:free' });
    expect(first.reason).toMatch(/^free pool first: sim:f \(free model sim\/lite:free/);
    const afterFirst = f.simLogLines();
    expect(afterFirst.map((line) => [line.pool, line.argv.includes(PROBE_PROMPT)])).toEqual([
      ['sim:f', true],
      ['sim:f', false],
    ]);
    expect(afterFirst[0]?.argv).toEqual(expect.arrayContaining(['--model', 'sim/lite:free']));
    // The probe is not an attempt: the task's attempt is number 1.
    expect(first.attempts.map((a) => a.attempt)).toEqual([1]);

    const second = await dispatchTask(f.runtime, f.request({ lane: 'chore', action: 'again' }));
    expect(second).toMatchObject({ ok: true, poolId: 'sim:f' });
    const added = f.simLogLines().slice(afterFirst.length);
    expect(added.map((line) => line.argv.includes(PROBE_PROMPT))).toEqual([false]);
    expect(probes(f.events).map((e) => [e.poolId, e.model, e.ok, e.cached])).toEqual([
      ['sim:f', 'sim/lite:free', true, false],
      ['sim:f', 'sim/lite:free', true, true],
    ]);
    expect(await f.store.probes.get('sim:f', 'sim/lite:free')).toMatchObject({
      ok: true,
      checkedAt: TEST_NOW,
    });
  });

  it('a 404 leaves the pool out of the pick (probe: 404 in the reason) and the task goes to the next pool', async () => {
    const f = await createDispatchFixture(pools('probe-404'));
    const result = await dispatchTask(f.runtime, f.request({ lane: 'chore' }));
    expect(result).toMatchObject({ ok: true, poolId: 'sim-codex:m', model: 'sim/lite' });
    expect(result.reason).toBe('most-behind capable pool (surplus 40) · excluded: sim:f probe: 404');
    expect(probes(f.events)).toEqual([
      expect.objectContaining({ poolId: 'sim:f', ok: false, cached: false, reason: '404' }),
    ]);
    expect(f.simLogLines().map((line) => line.pool)).toEqual(['sim:f', 'sim-codex:m']);
    expect(await f.store.probes.get('sim:f', 'sim/lite:free')).toMatchObject({
      ok: false,
      reason: '404',
    });
  });

  it('a provider error and a timeout leave the pool out the same way', async () => {
    const errored = await createDispatchFixture(pools('probe-error'));
    const result = await dispatchTask(errored.runtime, errored.request({ lane: 'chore' }));
    expect(result.poolId).toBe('sim-codex:m');
    expect(result.reason).toMatch(/ · excluded: sim:f probe: provider error: .*500/);

    const silent = await createDispatchFixture(pools('stall'), { BULLSWARM_PROBE_TIMEOUT_SEC: '1' });
    const timedOut = await dispatchTask(silent.runtime, silent.request({ lane: 'chore' }), {
      killGraceMs: 500,
    });
    expect(timedOut.poolId).toBe('sim-codex:m');
    expect(timedOut.reason).toBe('most-behind capable pool (surplus 40) · excluded: sim:f probe: timeout');
    const probeProcess = silent.simLogLines().find((line) => line.argv.includes(PROBE_PROMPT));
    expect(probeProcess?.signal).toBe('SIGTERM');
    expect(isPidAlive(probeProcess!.pid)).toBe(false);
  });

  it('with no other pool, a failed probe leaves nothing: the task comes back with the reason', async () => {
    const f = await createDispatchFixture([pools('probe-404')[0]!]);
    const result = await dispatchTask(f.runtime, f.request({ lane: 'chore' }));
    expect(result).toMatchObject({
      ok: false,
      kind: 'unavailable',
      why: 'no eligible pool: sim:f probe: 404',
    });
  });

  it('a pinned pool whose probe fails comes back at once with its reason (no second pick, no loop)', async () => {
    const f = await createDispatchFixture(pools('probe-404'));
    const pin = { poolId: 'sim:f', source: 'operator' as const, shownAs: '--worker-pool' };
    const first = await dispatchTask(f.runtime, f.request({ lane: 'chore', pin }));
    expect(first).toMatchObject({
      ok: false,
      kind: 'unavailable',
      poolId: null,
      why: 'pinned to sim:f (--worker-pool): probe: 404',
      attempts: [],
    });
    expect(probes(f.events).map((e) => [e.poolId, e.ok, e.cached])).toEqual([['sim:f', false, false]]);
    // Again: the cached failed probe is read once and the task comes back the same way.
    const again = await dispatchTask(f.runtime, f.request({ lane: 'chore', pin }));
    expect(again.why).toBe('pinned to sim:f (--worker-pool): probe: 404');
    expect(probes(f.events).map((e) => [e.poolId, e.ok, e.cached])).toEqual([
      ['sim:f', false, false],
      ['sim:f', false, true],
    ]);
    expect(await f.store.ledger.list()).toEqual([]);
  });

  it('every pool failing its probe ends the pick after one probe each', async () => {
    const f = await createDispatchFixture([
      { account: 'f', windows: weekly(40), scenario: { default: 'probe-404' } },
      { account: 'g', windows: weekly(30), scenario: { default: 'probe-404' } },
    ]);
    const result = await dispatchTask(f.runtime, f.request({ lane: 'chore' }));
    expect(result).toMatchObject({ ok: false, kind: 'unavailable' });
    expect(
      probes(f.events)
        .map((e) => e.poolId)
        .sort(),
    ).toEqual(['sim:f', 'sim:g']);
  });

  it('a canceled signal ends a pinned pick before any probe', async () => {
    const f = await createDispatchFixture(pools('probe-404'));
    const abort = new AbortController();
    abort.abort();
    const result = await dispatchTask(
      f.runtime,
      f.request({
        lane: 'chore',
        pin: { poolId: 'sim:f', source: 'operator', shownAs: '--worker-pool' },
        signal: abort.signal,
      }),
    );
    expect(result).toMatchObject({ ok: false, kind: 'canceled', why: 'canceled' });
    expect(probes(f.events)).toEqual([]);
  });

  it('a paid model is never probed, and a dry run (routeTask) probes nothing', async () => {
    const f = await createDispatchFixture(pools('ok'));
    await dispatchTask(f.runtime, f.request({ lane: 'analyze' }));
    const dry = await routeTask(f.runtime, { lane: 'chore', tier: 'low', kind: 'single-run' });
    expect(dry.decision.poolId).toBe('sim:f');
    expect(f.simLogLines().some((line) => line.argv.includes(PROBE_PROMPT))).toBe(false);
    expect(probes(f.events)).toEqual([]);
  });

  it('probeFreeModel caches a result for 15 minutes per pool and model', async () => {
    const f = await createDispatchFixture(pools('ok'));
    let now = TEST_NOW;
    const detail = {
      store: f.store,
      connector: f.runtime.connectors.get('sim')!,
      poolId: 'sim:f',
      model: 'sim/lite:free',
      account: 'f',
      accountEnv: { BULLSWARM_SIM_HOME: `${f.home}/sim/f` },
      bullswarmHome: f.home,
      cwd: f.work,
      env: f.env,
      clock: () => now,
    };
    expect(await probeFreeModel(detail)).toMatchObject({ ok: true, cached: false, checkedAt: TEST_NOW });
    now += 14 * 60_000;
    expect(await probeFreeModel(detail)).toMatchObject({ ok: true, cached: true, checkedAt: TEST_NOW });
    now += 2 * 60_000;
    expect(await probeFreeModel(detail)).toMatchObject({ ok: true, cached: false, checkedAt: now });
    expect(await probeFreeModel({ ...detail, model: 'sim/other:free' })).toMatchObject({ cached: false });
    expect(f.simLogLines()).toHaveLength(3);
  });
});
