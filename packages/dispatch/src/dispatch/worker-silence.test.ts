import { afterEach, describe, expect, it } from 'vitest';
import { buildPoolSnapshots } from '../snapshots/build-pool-snapshots';
import { closeDispatchFixtures, createDispatchFixture, TEST_NOW } from '../test-support/dispatch-fixture';
import { workerSilenceMs } from './worker-silence';

afterEach(closeDispatchFixtures);

const MIN = 60_000;

describe('workerSilenceMs (the silence clock of one attempt)', () => {
  it('metered: one hour; free: the p50 of its own non-stalled runs at (pool, tier) once 3 exist, floor 5 min', async () => {
    const f = await createDispatchFixture([
      { account: 'f', windows: [{ kind: 'weekly', usedPct: 10, resetsInMin: 5040 }] },
      { account: 'g', windows: [{ kind: 'weekly', usedPct: 10, resetsInMin: 5040 }] },
    ]);
    const store = f.store;
    const record = (poolId: string, tier: string, minutes: number, stalled = false, n = 0) =>
      store.runs.append({
        id: `${poolId}-${tier}-${minutes}-${stalled}-${n}`,
        poolId,
        tier,
        lane: 'chore',
        action: 'run',
        startedAt: TEST_NOW - (n + 1) * 60 * MIN,
        endedAt: TEST_NOW - (n + 1) * 60 * MIN + minutes * MIN,
        stalled,
        outcome: stalled ? 'stalled' : 'ok',
        workerMinutes: minutes,
      });
    // sim:f at low: 8, 9, 10 minutes, and a stalled 1-minute attempt that must not count.
    await record('sim:f', 'low', 8, false, 0);
    await record('sim:f', 'low', 9, false, 1);
    await record('sim:f', 'low', 10, false, 2);
    await record('sim:f', 'low', 1, true, 3);
    // sim:g at low: three quick runs (p50 2 min → the 5-minute floor); only two at medium.
    await record('sim:g', 'low', 2, false, 0);
    await record('sim:g', 'low', 2, false, 1);
    await record('sim:g', 'low', 3, false, 2);
    await record('sim:g', 'medium', 9, false, 3);
    await record('sim:g', 'medium', 9, false, 4);

    const { pools } = await buildPoolSnapshots(f.runtime);
    const pool = (id: string) => pools.find((p) => p.id === id)!;
    const settings = {};
    expect(workerSilenceMs({ settings, free: true, pool: pool('sim:f'), tier: 'low' })).toBe(9 * MIN);
    expect(workerSilenceMs({ settings, free: true, pool: pool('sim:g'), tier: 'low' })).toBe(5 * MIN);
    expect(workerSilenceMs({ settings, free: true, pool: pool('sim:g'), tier: 'medium' })).toBe(60 * MIN);
    expect(workerSilenceMs({ settings, free: false, pool: pool('sim:f'), tier: 'low' })).toBe(60 * MIN);
    expect(
      workerSilenceMs({ settings: { silenceMs: 2_000 }, free: true, pool: pool('sim:f'), tier: 'low' }),
    ).toBe(2_000);
  });
});
