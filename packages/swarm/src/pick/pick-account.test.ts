import { join } from 'node:path';
import { type BullswarmRuntime, openRuntime } from '@bullswarm/dispatch';
import { type TestPool, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { SwarmInputError } from '../errors/swarm-input-error';
import { assignAccount } from '../launch/assign-account';
import { createRepo, openTestSwarm, smallPlan, tempDirs } from '../test-support/swarm-fixture';
import { pickAccount } from './pick-account';

const dirs = tempDirs();
const runtimes: BullswarmRuntime[] = [];
afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.close();
  await dirs.cleanup();
});

const NOW = Date.parse('2026-09-10T12:00:00Z');
const weekly = (usedPct: number) => [
  { kind: 'five_hour' as const, usedPct: 5, resetsInMin: 200 },
  { kind: 'weekly' as const, usedPct, resetsInMin: 3 * 1440 },
];
const POOLS: TestPool[] = [
  { account: 'lead', label: 'lead', windows: weekly(10) },
  { account: 'a', label: 'a', windows: weekly(5) },
  { account: 'b', label: 'b', windows: weekly(10) },
  { account: 'c', label: 'c', connector: 'sim-codex', windows: weekly(50) },
];

async function setup() {
  const dir = dirs.make();
  writeTestHome(dir, { now: NOW, pools: POOLS });
  const runtime = await openRuntime({
    home: dir,
    env: {},
    clock: () => NOW,
    createStore: true,
    userHome: dir,
  });
  runtimes.push(runtime);
  const { swarm } = await openTestSwarm(dir, { clock: () => NOW });
  await swarm.agents.register({ address: 'boss', poolId: 'sim:lead' });
  await swarm.leases.acquire({ poolId: 'sim:a', holder: 'lane-a', owner: 'boss' });
  return { runtime, swarm };
}

describe('pickAccount', () => {
  it('ranks declared pools by pacing, leaving out leased pools and the lead’s own', async () => {
    const { runtime, swarm } = await setup();
    const pick = await pickAccount(runtime, swarm, { kind: 'any', owner: 'boss', env: {} });
    expect(pick.ranked.map((p) => p.poolId)).toEqual(['sim:b', 'sim-codex:c']);
    expect(pick.best).toMatchObject({ poolId: 'sim:b', capacity: 'ok', providerFamily: 'sim' });
    expect(pick.leftOut).toEqual(
      expect.arrayContaining([
        { poolId: 'sim:lead', reason: "the lead boss's own account" },
        { poolId: 'sim:a', reason: 'leased to lane-a by boss' },
      ]),
    );
  });

  it('filters by connector id or provider family, honours --exclude, prefers another vendor when asked', async () => {
    const { runtime, swarm } = await setup();
    expect(
      (await pickAccount(runtime, swarm, { kind: 'sim-codex', owner: 'boss', env: {} })).ranked.map(
        (p) => p.poolId,
      ),
    ).toEqual(['sim-codex:c']);
    expect(
      (await pickAccount(runtime, swarm, { kind: 'sim', owner: 'boss', env: {} })).ranked.map(
        (p) => p.poolId,
      ),
    ).toEqual(['sim:b']);
    expect(
      (
        await pickAccount(runtime, swarm, { kind: 'any', owner: 'boss', exclude: ['@b'], env: {} })
      ).ranked.map((p) => p.poolId),
    ).toEqual(['sim-codex:c']);
    const other = await pickAccount(runtime, swarm, {
      kind: 'any',
      owner: 'boss',
      preferOtherFamilyThan: 'sim',
      env: {},
    });
    expect(other.best?.poolId).toBe('sim-codex:c');
    await expect(pickAccount(runtime, swarm, { kind: 'nope', owner: 'boss', env: {} })).rejects.toThrow(
      SwarmInputError,
    );
  });

  it('leaves out pools the plan does not declare, and pools whose capacity is critical (caps included)', async () => {
    const { runtime, swarm } = await setup();
    const declared = await pickAccount(runtime, swarm, {
      kind: 'any',
      owner: 'boss',
      plan: { id: 'p1', pools: ['c'] },
      env: {},
    });
    expect(declared.ranked.map((p) => p.poolId)).toEqual(['sim-codex:c']);
    expect(declared.leftOut).toContainEqual({ poolId: 'sim:b', reason: 'not declared by plan p1' });
    const capped = await pickAccount(runtime, swarm, {
      kind: 'any',
      owner: 'boss',
      env: { BULLSWARM_CAPACITY_CAP: '@b=8' },
    });
    expect(capped.ranked.map((p) => p.poolId)).toEqual(['sim-codex:c']);
    expect(capped.leftOut.find((p) => p.poolId === 'sim:b')?.reason).toMatch(/^capacity critical/);
    // Released lease: the account is back.
    await swarm.leases.release('sim:a');
    expect(
      (await pickAccount(runtime, swarm, { kind: 'sim', owner: 'boss', env: {} })).ranked.map(
        (p) => p.poolId,
      ),
    ).toEqual(['sim:a', 'sim:b']);
  });
});

describe('pickAccount with an expiring pool', () => {
  it('lists every eligible pool: the urgent one ranked, the others left out in pacing order with why', async () => {
    const dir = dirs.make();
    writeTestHome(dir, {
      now: NOW,
      pools: [
        { account: 'soon', label: 'soon', windows: [{ kind: 'weekly', usedPct: 40, resetsInMin: 600 }] },
        { account: 'x', label: 'x', windows: weekly(10) },
        { account: 'y', label: 'y', windows: weekly(30) },
      ],
    });
    const runtime = await openRuntime({
      home: dir,
      env: {},
      clock: () => NOW,
      createStore: true,
      userHome: dir,
    });
    runtimes.push(runtime);
    const { swarm } = await openTestSwarm(dir, { clock: () => NOW });
    const pick = await pickAccount(runtime, swarm, { kind: 'any', owner: 'boss', env: {} });
    expect(pick.ranked.map((p) => p.poolId)).toEqual(['sim:soon']);
    expect(pick.leftOut).toEqual([
      { poolId: 'sim:x', reason: 'not urgent while sim:soon is expiring' },
      { poolId: 'sim:y', reason: 'not urgent while sim:soon is expiring' },
    ]);
  });
});

describe('pickAccount for a long task', () => {
  it('prefers accounts of known capacity (pacing ranks the unmetered ones first otherwise); assignAccount reads `long` from the plan', async () => {
    const dir = dirs.make();
    writeTestHome(dir, {
      now: NOW,
      pools: [
        { account: 'blind', meter: { type: 'none' } },
        { account: 'metered', windows: weekly(60) },
        { account: 'unread' },
      ],
    });
    const runtime = await openRuntime({
      home: dir,
      env: {},
      clock: () => NOW,
      createStore: true,
      userHome: dir,
    });
    runtimes.push(runtime);
    const { swarm } = await openTestSwarm(dir, { clock: () => NOW });
    const order = async (long?: boolean) =>
      (
        await pickAccount(runtime, swarm, { kind: 'any', owner: 'boss', env: {}, ...(long ? { long } : {}) })
      ).ranked.map((p) => [p.poolId, p.capacity]);
    expect(await order()).toEqual([
      ['sim:blind', 'unknown'],
      ['sim:unread', 'unknown'],
      ['sim:metered', 'ok'],
    ]);
    // Known capacity first; pacing's order is kept within each group.
    expect(await order(true)).toEqual([
      ['sim:metered', 'ok'],
      ['sim:blind', 'unknown'],
      ['sim:unread', 'unknown'],
    ]);

    const plan = smallPlan('long');
    const { plan: location } = createRepo(join(dir, 'repo'), {
      ...plan,
      tasks: [
        { id: 'big', lane: 'build', long: true },
        { id: 'small', lane: 'build' },
      ],
    });
    await swarm.leads.claim(location, { address: 'boss' });
    const big = await assignAccount(runtime, swarm, {
      plan: location,
      task: 'big',
      owner: 'boss',
      address: 'lane-big',
      env: {},
    });
    expect(big.poolId).toBe('sim:metered');
    const small = await assignAccount(runtime, swarm, {
      plan: location,
      task: 'small',
      owner: 'boss',
      address: 'lane-small',
      env: {},
    });
    expect(small.poolId).toBe('sim:blind');
  });
});
