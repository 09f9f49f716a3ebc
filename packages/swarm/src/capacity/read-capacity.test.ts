import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { type BullswarmRuntime, openRuntime } from '@bullswarm/dispatch';
import { UnknownPoolError } from '@bullswarm/store';
import { type TestPool, writePoolMeter, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { SwarmInputError } from '../errors/swarm-input-error';
import { tempDirs } from '../test-support/swarm-fixture';
import { CAPACITY_DECISIONS } from './capacity-decision';
import { capacityThresholds, parseCapacityCaps } from './capacity-env';
import { readCapacity, resolvePool } from './read-capacity';

const dirs = tempDirs();
const runtimes: BullswarmRuntime[] = [];
afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.close();
  await dirs.cleanup();
});

const NOW = Date.parse('2026-09-10T12:00:00Z');
const work1: TestPool = {
  account: 'work1',
  label: 'work1',
  windows: [
    { kind: 'five_hour', usedPct: 20, resetsInMin: 120 },
    { kind: 'weekly', usedPct: 36, resetsInMin: 3 * 1440 },
  ],
};

async function home(pools: readonly TestPool[], clock = { value: NOW }) {
  const dir = dirs.make();
  writeTestHome(dir, { now: NOW, pools });
  const runtime = await openRuntime({
    home: dir,
    env: {},
    clock: () => clock.value,
    createStore: true,
    userHome: dir,
  });
  runtimes.push(runtime);
  return { dir, runtime, clock };
}

describe('readCapacity', () => {
  it('prints the capacity line from the binding window', async () => {
    const { runtime } = await home([work1]);
    const report = await readCapacity(runtime, { pool: 'work1', env: {} });
    expect(report).toMatchObject({
      verdict: 'ok',
      freePct: 64,
      bindingWindow: 'weekly',
      line: 'capacity=ok 64% @work1 decision=continue',
      poolId: 'sim:work1',
    });
    expect(report.thresholds).toMatchObject({ lowPct: 25, criticalPct: 10, lowSource: 'default' });
  });

  it.each([
    [{ BULLSWARM_CAPACITY_CAP: '@work1=8' }, 'critical', 8, 'capacity=critical 8% @work1 decision=hand-off'],
    [{ BULLSWARM_CAPACITY_CAP: 'work1=20' }, 'low', 20, 'capacity=low 20% @work1 decision=prepare'],
    [{ BULLSWARM_CAPACITY_CAP: '@work1=90' }, 'ok', 64, 'capacity=ok 64% @work1 decision=continue'],
    [
      { AGENTKIT_CAPACITY_CAP: '@sim:work1=8' },
      'critical',
      8,
      'capacity=critical 8% @work1 decision=hand-off',
    ],
    [
      { BULLSWARM_CAPACITY_CAP: '@work1=30', AGENTKIT_CAPACITY_CAP: '@work1=12' },
      'low',
      12,
      'capacity=low 12% @work1 decision=prepare',
    ],
    [
      { BULLSWARM_CAPACITY_CAP: '@sim:other=5,@work1=50' },
      'ok',
      50,
      'capacity=ok 50% @work1 decision=continue',
    ],
  ])('a cap %j lowers the reading, never raises it', async (env, verdict, freePct, line) => {
    const { runtime } = await home([work1, { account: 'other', windows: work1.windows! }]);
    expect(await readCapacity(runtime, { pool: 'work1', env })).toMatchObject({ verdict, freePct, line });
  });

  it('the capacity line carries its decision: ok and unknown continue, low prepares, critical hands off', async () => {
    const { runtime } = await home([work1, { account: 'blind', meter: { type: 'none' } }]);
    const at = async (env: Record<string, string>, pool = 'work1') => {
      const report = await readCapacity(runtime, { pool, env });
      return [report.verdict, report.decision, report.line];
    };
    expect(await at({})).toEqual(['ok', 'continue', 'capacity=ok 64% @work1 decision=continue']);
    expect(await at({ BULLSWARM_CAPACITY_CAP: '@work1=25' })).toEqual([
      'low',
      'prepare',
      'capacity=low 25% @work1 decision=prepare',
    ]);
    expect(await at({ BULLSWARM_CAPACITY_CAP: '@work1=10' })).toEqual([
      'critical',
      'hand-off',
      'capacity=critical 10% @work1 decision=hand-off',
    ]);
    expect(await at({}, 'sim:blind')).toEqual([
      'unknown',
      'continue',
      'capacity=unknown @sim:blind decision=continue',
    ]);
    expect(CAPACITY_DECISIONS).toEqual({
      ok: 'continue',
      low: 'prepare',
      critical: 'hand-off',
      unknown: 'continue',
    });
  });

  it("a cap names the account by its profile (the spec's @<profile>=8), also when the pool has another label", async () => {
    const { runtime } = await home([
      { ...work1, label: 'w1' },
      { account: 'shared', windows: work1.windows! },
      { connector: 'sim-codex', account: 'shared', windows: work1.windows! },
    ]);
    // work1 is neither the pool's id (sim:work1) nor its label (w1): it is its account, the kit's profile.
    expect(
      await readCapacity(runtime, { pool: 'sim:work1', env: { AGENTKIT_CAPACITY_CAP: '@work1=8' } }),
    ).toMatchObject({ verdict: 'critical', freePct: 8, line: 'capacity=critical 8% @w1 decision=hand-off' });
    expect(resolvePool(runtime, '@work1')).toBe('sim:work1');
    // An id or label still wins, and a profile two pools share is refused, naming both.
    expect(resolvePool(runtime, '@w1')).toBe('sim:work1');
    await expect(
      readCapacity(runtime, { pool: 'sim:work1', env: { BULLSWARM_CAPACITY_CAP: '@shared=8' } }),
    ).rejects.toThrow(/BULLSWARM_CAPACITY_CAP "@shared=8" is not valid: .*sim:shared, sim-codex:shared/);
  });

  it('thresholds come from BULLSWARM_CAPACITY_* first, then AGENTKIT_CAPACITY_*', async () => {
    const { runtime } = await home([work1]);
    expect(
      (await readCapacity(runtime, { pool: 'work1', env: { BULLSWARM_CAPACITY_LOW: '70' } })).verdict,
    ).toBe('low');
    expect(
      (await readCapacity(runtime, { pool: 'work1', env: { AGENTKIT_CAPACITY_LOW: '70' } })).verdict,
    ).toBe('low');
    expect(
      (
        await readCapacity(runtime, {
          pool: 'work1',
          env: { AGENTKIT_CAPACITY_LOW: '70', AGENTKIT_CAPACITY_CRITICAL: '65' },
        })
      ).verdict,
    ).toBe('critical');
    expect(capacityThresholds({ BULLSWARM_CAPACITY_LOW: '30', AGENTKIT_CAPACITY_LOW: '70' })).toMatchObject({
      lowPct: 30,
      lowSource: 'BULLSWARM_CAPACITY_LOW',
    });
    await expect((async () => capacityThresholds({ BULLSWARM_CAPACITY_LOW: 'lots' }))()).rejects.toThrow(
      /BULLSWARM_CAPACITY_LOW "lots" is not valid/,
    );
    await expect((async () => capacityThresholds({ AGENTKIT_CAPACITY_CRITICAL: '40' }))()).rejects.toThrow(
      SwarmInputError,
    );
    await expect(
      (async () => parseCapacityCaps({ BULLSWARM_CAPACITY_CAP: '@work1=eight' }))(),
    ).rejects.toThrow(/BULLSWARM_CAPACITY_CAP "@work1=eight"/);
    await expect(
      readCapacity(runtime, { pool: 'work1', env: { BULLSWARM_CAPACITY_CAP: '@nope=5' } }),
    ).rejects.toThrow(/caps on declared pools \(@work1, or an account name\)/);
  });

  it('resolvePool takes an id or a label, with or without the @ sigil, and only declared pools', async () => {
    const { runtime } = await home([work1]);
    for (const ref of ['work1', '@work1', 'sim:work1', '@sim:work1']) {
      expect(resolvePool(runtime, ref), ref).toBe('sim:work1');
    }
    await expect((async () => resolvePool(runtime, '@ghost'))()).rejects.toThrow(UnknownPoolError);
    await expect((async () => resolvePool(runtime, '@ghost'))()).rejects.toThrow(/"ghost"/);
    // A self pool given as @label resolves like one typed on a command line.
    expect(await readCapacity(runtime, { self: true, env: { BULLSWARM_POOL: '@work1' } })).toMatchObject({
      poolId: 'sim:work1',
      line: 'capacity=ok 64% @work1 decision=continue',
    });
  });

  it('is unknown, never ok, outside a bullswarm launch, for an undeclared pool, and without a meter', async () => {
    const { runtime } = await home([
      work1,
      { account: 'blind', meter: { type: 'none' } },
      { account: 'nofile' },
    ]);
    expect(await readCapacity(runtime, { self: true, env: {} })).toMatchObject({
      verdict: 'unknown',
      line: 'capacity=unknown @self decision=continue',
      poolId: null,
    });
    expect((await readCapacity(runtime, { self: true, env: {} })).reason).toMatch(
      /outside a bullswarm launch/,
    );
    expect(await readCapacity(runtime, { self: true, env: { BULLSWARM_POOL: 'sim:ghost' } })).toMatchObject({
      verdict: 'unknown',
      line: 'capacity=unknown @sim:ghost decision=continue',
    });
    expect(await readCapacity(runtime, { self: true, env: { BULLSWARM_POOL: 'sim:blind' } })).toMatchObject({
      verdict: 'unknown',
      poolId: 'sim:blind',
    });
    expect(await readCapacity(runtime, { pool: 'sim:nofile', env: {} })).toMatchObject({
      verdict: 'unknown',
      meterStatus: 'unmetered',
    });
    // Inside a launch on a metered pool: the real verdict (the cap still applies).
    expect(
      await readCapacity(runtime, {
        self: true,
        env: { BULLSWARM_POOL: 'sim:work1', BULLSWARM_CAPACITY_CAP: '@work1=8' },
      }),
    ).toMatchObject({
      verdict: 'critical',
      line: 'capacity=critical 8% @work1 decision=hand-off',
    });
    await expect(readCapacity(runtime, { pool: 'ghost', env: {} })).rejects.toThrow(/unknown pool "ghost"/);
  });

  it('a rate-limited pool is critical', async () => {
    const { runtime } = await home([{ ...work1, rateLimited: true }]);
    expect(await readCapacity(runtime, { pool: 'work1', env: {} })).toMatchObject({
      verdict: 'critical',
      freePct: 64,
    });
  });

  it('reads through a cache kept 300 s; an old held reading (an old reader) is unknown', async () => {
    const { dir, runtime, clock } = await home([work1]);
    expect((await readCapacity(runtime, { pool: 'work1', env: {} })).meterStatus).toBe('live');
    writePoolMeter(dir, { ...work1, windows: [{ kind: 'weekly', usedPct: 80, resetsInMin: 3 * 1440 }] }, NOW);
    clock.value = NOW + 299_000;
    expect(await readCapacity(runtime, { pool: 'work1', env: {} })).toMatchObject({
      meterStatus: 'cache',
      freePct: 64,
    });
    clock.value = NOW + 301_000;
    expect(await readCapacity(runtime, { pool: 'work1', env: {} })).toMatchObject({
      meterStatus: 'live',
      verdict: 'low',
      freePct: 20,
    });

    // The source goes away: the last reading is held stale, then judged too old to vouch for.
    rmSync(join(dir, 'sim', 'work1', 'meter.json'));
    clock.value = NOW + 700_000;
    expect(await readCapacity(runtime, { pool: 'work1', env: {} })).toMatchObject({
      meterStatus: 'stale',
      verdict: 'low',
    });
    clock.value = NOW + 301_000 + 901_000;
    const old = await readCapacity(runtime, { pool: 'work1', env: {} });
    expect(old).toMatchObject({
      verdict: 'unknown',
      meterStatus: 'stale',
      line: 'capacity=unknown @work1 decision=continue',
    });
    expect(old.reason).toMatch(/stale reading is 901s old/);
    expect(
      (await readCapacity(runtime, { pool: 'work1', env: { BULLSWARM_CAPACITY_MAX_AGE_SEC: '3600' } }))
        .verdict,
    ).toBe('low');
  });
});
