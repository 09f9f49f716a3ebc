import { join } from 'node:path';
import { type BullswarmRuntime, openRuntime } from '@bullswarm/dispatch';
import { type TestPool, writePoolMeter, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { NoAccountError } from '../errors/no-account-error';
import { PlanFileError } from '../errors/plan-file-error';
import { assignAccount } from '../launch/assign-account';
import { readJournal } from '../plans/journal';
import { loadPlan } from '../plans/plan-location';
import { createRepo, openTestSwarm, smallPlan, tempDirs, writePlan } from '../test-support/swarm-fixture';
import { formatHorizon, judgeNoAccount } from './park-when-exhausted';

const dirs = tempDirs();
const runtimes: BullswarmRuntime[] = [];
afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.close();
  await dirs.cleanup();
});

const NOW = Date.parse('2026-09-10T12:00:00Z');
const HOUR = 3_600_000;
/** Both accounts are out of room: a at 97 % of its week (resets in 3 days), b at its 5-hour limit (resets in 2 h). */
const POOLS: TestPool[] = [
  { account: 'a', label: 'a', windows: [{ kind: 'weekly', usedPct: 97, resetsInMin: 3 * 1440 }] },
  {
    account: 'b',
    label: 'b',
    windows: [
      { kind: 'five_hour', usedPct: 100, resetsInMin: 120 },
      { kind: 'weekly', usedPct: 10, resetsInMin: 3 * 1440 },
    ],
  },
];

async function setup(horizon: string | undefined) {
  const dir = dirs.make();
  const home = join(dir, 'home');
  writeTestHome(home, { now: NOW, pools: POOLS });
  const clock = { value: NOW };
  // The swarm and the runtime share one store: the home's file, or the suite's Postgres database.
  const { swarm, storeUrl } = await openTestSwarm(home, { now: clock });
  const runtime = await openRuntime({
    home,
    env: storeUrl === undefined ? {} : { BULLSWARM_STORE_URL: storeUrl },
    clock: () => clock.value,
    createStore: true,
    userHome: home,
  });
  runtimes.push(runtime);
  const { plan } = createRepo(join(dir, 'repo'), {
    ...smallPlan(),
    pools: ['sim:a', 'sim:b'],
    ...(horizon === undefined ? {} : { horizon }),
  });
  await swarm.leads.claim(plan, { address: 'boss' });
  const assign = async (task: string, address: string) => {
    try {
      return await assignAccount(runtime, swarm, { plan, task, owner: 'boss', address, env: {} });
    } catch (error) {
      if (NoAccountError.isInstance(error)) return error;
      throw error;
    }
  };
  return { home, runtime, swarm, plan, clock, assign };
}

describe('a plan has a horizon: when no account resets within it, the swarm parks', () => {
  it('parks with the soonest reset recorded, escalates C7 once, and moves again when an account has room', async () => {
    const { home, swarm, plan, clock, assign } = await setup('1h');
    const refused = await assign('api', 'lane-a');
    expect(NoAccountError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({
      outcome: 'park',
      soonestReset: { poolId: 'sim:b', at: NOW + 2 * HOUR },
    });
    expect((refused as Error).message).toContain(
      "the plan is parked (park #1, escalation #1 C7): no declared account of kind any has room for task api and none resets within the plan's horizon 1h: the soonest reset is 2026-09-10T14:00:00.000Z (sim:b)",
    );
    const park = await swarm.parks.current(plan);
    expect(park).toMatchObject({
      task: 'api',
      parkedBy: 'boss',
      horizonMs: HOUR,
      soonestReset: { poolId: 'sim:b', at: NOW + 2 * HOUR },
      escalationId: 1,
      resumedAt: undefined,
    });
    expect(await swarm.escalations.list(plan, { open: true })).toEqual([
      expect.objectContaining({ id: 1, class: 'C7', task: undefined, raisedBy: 'boss' }),
    ]);
    expect(readJournal(plan.journalFile).find((e) => e.event === 'swarm.parked')).toMatchObject({
      by: 'boss',
      horizon: '1h',
      soonestReset: '2026-09-10T14:00:00.000Z',
      soonestResetPool: 'sim:b',
    });

    // Another task hitting the same wall: the park and its escalation are not recorded or sent twice.
    expect(await assign('cli', 'lane-b')).toMatchObject({ outcome: 'park', parkId: park!.id });
    expect(await swarm.parks.list(plan)).toHaveLength(1);
    expect(await swarm.escalations.list(plan)).toHaveLength(1);

    // An account has room again: the next assignment succeeds and lifts the park.
    writePoolMeter(
      home,
      { ...POOLS[0]!, windows: [{ kind: 'weekly', usedPct: 10, resetsInMin: 3 * 1440 }] },
      NOW,
    );
    clock.value = NOW + 10 * 60_000;
    const assigned = await assign('api', 'lane-a');
    expect(assigned).toMatchObject({ poolId: 'sim:a' });
    expect(await swarm.parks.current(plan)).toBeUndefined();
    expect((await swarm.parks.list(plan))[0]).toMatchObject({
      resumedBy: 'boss',
      resumedAt: NOW + 10 * 60_000,
    });
    expect(readJournal(plan.journalFile).at(-1)).toMatchObject({
      event: 'swarm.resumed',
      why: 'an account has room again: sim:a',
    });
  });

  it('waits instead when an account resets within the horizon (default 24h), and the answer to C7 lifts a park', async () => {
    const waiting = await setup(undefined);
    expect(await waiting.assign('api', 'lane-a')).toMatchObject({
      outcome: 'wait',
      soonestReset: { poolId: 'sim:b', at: NOW + 2 * HOUR },
    });
    expect(await waiting.swarm.parks.current(waiting.plan)).toBeUndefined();
    expect(await waiting.swarm.escalations.list(waiting.plan)).toEqual([]);

    const parked = await setup('90m');
    await parked.assign('api', 'lane-a');
    const escalation = (await parked.swarm.escalations.list(parked.plan, { open: true }))[0]!;
    await parked.swarm.escalations.answer(parked.plan, {
      id: escalation.id,
      answer: 'added codex:spare to the pool',
    });
    expect(await parked.swarm.parks.current(parked.plan)).toBeUndefined();
    expect((await parked.swarm.parks.list(parked.plan))[0]).toMatchObject({ resumedBy: 'developer' });
    expect(readJournal(parked.plan.journalFile).map((e) => e.event)).toContain('swarm.resumed');
  });

  it('judges a pick with no account: held, wait, park, unavailable', async () => {
    const at = (poolId: string, ms: number) => ({ poolId, at: NOW + ms });
    const judge = (pick: Parameters<typeof judgeNoAccount>[0]) => judgeNoAccount(pick, 5 * HOUR, NOW).kind;
    expect(judge({ held: ['sim:x'], noRoom: [], soonestReset: undefined })).toBe('held');
    expect(
      judge({
        held: [],
        noRoom: [{ poolId: 'sim:a', resetsAt: NOW + HOUR }],
        soonestReset: at('sim:a', HOUR),
      }),
    ).toBe('wait');
    expect(
      judge({
        held: [],
        noRoom: [{ poolId: 'sim:a', resetsAt: NOW + 5 * HOUR }],
        soonestReset: at('sim:a', 5 * HOUR),
      }),
    ).toBe('wait');
    expect(
      judge({
        held: [],
        noRoom: [{ poolId: 'sim:a', resetsAt: NOW + 6 * HOUR }],
        soonestReset: at('sim:a', 6 * HOUR),
      }),
    ).toBe('park');
    expect(
      judge({ held: [], noRoom: [{ poolId: 'sim:a', resetsAt: undefined }], soonestReset: undefined }),
    ).toBe('park');
    expect(judge({ held: [], noRoom: [], soonestReset: undefined })).toBe('unavailable');
  });

  it('formats a horizon as plan files write it', async () => {
    expect([90 * 60_000, 5 * HOUR, 24 * HOUR, 36 * HOUR, 48 * HOUR, 84 * HOUR].map(formatHorizon)).toEqual([
      '1h30m',
      '5h',
      '24h',
      '36h',
      '2d',
      '3d12h',
    ]);
  });

  it('a horizon that is not a duration is refused naming the plan file and field', async () => {
    const dir = dirs.make();
    const plan = writePlan(dir, { ...smallPlan(), horizon: 'soon' });
    await expect((async () => loadPlan(plan))()).rejects.toThrow(PlanFileError);
    await expect((async () => loadPlan(plan))()).rejects.toThrow(
      /plan\.json: horizon: expected a duration such as 5h, 90m, 2d or 1d12h/,
    );
  });
});
