import { afterEach, describe, expect, it } from 'vitest';
import { LeaseRefusedError } from '../errors/lease-refused-error';
import { openTestSwarm, tempDirs } from '../test-support/swarm-fixture';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

async function refusal(fn: () => unknown): Promise<LeaseRefusedError> {
  try {
    await fn();
  } catch (error) {
    if (LeaseRefusedError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a LeaseRefusedError');
}

describe('leases', () => {
  it('holds an account for one lane at a time; a second lease on a held account is refused', async () => {
    const { swarm } = await openTestSwarm(dirs.make());
    const lease = await swarm.leases.acquire({ poolId: 'sim:work1', holder: 'lane-a', owner: 'boss' });
    expect(lease).toMatchObject({ poolId: 'sim:work1', holder: 'lane-a', owner: 'boss', ttlMs: 1_800_000 });
    const held = await refusal(() =>
      swarm.leases.acquire({ poolId: 'sim:work1', holder: 'lane-b', owner: 'boss' }),
    );
    expect(held).toMatchObject({ reason: 'held', holder: 'lane-a', owner: 'boss' });
    // Another lead cannot put a second writer on it either.
    expect(
      (
        await refusal(() =>
          swarm.leases.acquire({ poolId: 'sim:work1', holder: 'lane-a', owner: 'other-lead' }),
        )
      ).reason,
    ).toBe('held');
    // The same holder and owner again renews it.
    expect(
      (await swarm.leases.acquire({ poolId: 'sim:work1', holder: 'lane-a', owner: 'boss' })).holder,
    ).toBe('lane-a');
    expect(await swarm.leases.list()).toHaveLength(1);
  });

  it("never leases the lead's own account", async () => {
    const { swarm } = await openTestSwarm(dirs.make());
    await swarm.agents.register({ address: 'boss', poolId: 'sim:lead' });
    const own = await refusal(() =>
      swarm.leases.acquire({ poolId: 'sim:lead', holder: 'lane-a', owner: 'boss' }),
    );
    expect(own.reason).toBe('lead-own-account');
    expect(own.message).toContain("lead boss's own account");
    expect(
      (
        await refusal(() =>
          swarm.leases.acquire({ poolId: 'sim:x', holder: 'lane-a', owner: 'boss', ownerPoolId: 'sim:x' }),
        )
      ).reason,
    ).toBe('lead-own-account');
    expect(
      (
        await refusal(() =>
          swarm.leases.acquire({
            poolId: 'sim:y',
            holder: 'lane-a',
            owner: 'boss',
            declaredPoolIds: ['sim:x'],
          }),
        )
      ).reason,
    ).toBe('not-declared');
    expect(await swarm.leases.list()).toEqual([]);
  });

  it('releases by holder or owner only, and survives a restart (a new store handle)', async () => {
    const dir = dirs.make();
    const first = await openTestSwarm(dir);
    await first.swarm.leases.acquire({ poolId: 'sim:a', holder: 'lane-a', owner: 'boss' });
    await first.swarm.leases.acquire({ poolId: 'sim:b', holder: 'lane-b', owner: 'boss' });
    first.store.close();

    const second = await openTestSwarm(dir, {
      now: first.now,
      ...(first.storeUrl === undefined ? {} : { storeUrl: first.storeUrl }),
    });
    expect((await second.swarm.leases.list()).map((l) => [l.poolId, l.holder])).toEqual([
      ['sim:a', 'lane-a'],
      ['sim:b', 'lane-b'],
    ]);
    expect((await refusal(() => second.swarm.leases.release('sim:a', 'lane-b'))).reason).toBe('not-holder');
    expect((await second.swarm.leases.release('sim:a', 'lane-a')).holder).toBe('lane-a');
    expect((await second.swarm.leases.release('sim:b', 'boss')).holder).toBe('lane-b');
    expect((await refusal(() => second.swarm.leases.release('sim:b'))).reason).toBe('not-held');
    expect((await second.swarm.leases.events('sim:a')).map((e) => e.event)).toEqual(['acquired', 'released']);
  });

  it('expires at its TTL unless the holder heartbeats; a heartbeat renews, an expired lease is not revived', async () => {
    const { swarm, now } = await openTestSwarm(dirs.make());
    await swarm.agents.register({ address: 'lane-a' });
    const start = now.value;
    await swarm.leases.acquire({ poolId: 'sim:a', holder: 'lane-a', owner: 'boss', ttlMs: 60_000 });
    now.value = start + 59_999;
    expect((await swarm.leases.get('sim:a'))?.holder).toBe('lane-a');
    expect((await swarm.agents.heartbeat('lane-a')).renewedLeases).toBe(1);
    now.value = start + 59_999 + 59_999;
    expect((await swarm.leases.get('sim:a'))?.expiresAt).toBe(start + 59_999 + 60_000);
    now.value = start + 59_999 + 60_000;
    expect(await swarm.leases.get('sim:a')).toBeUndefined();
    expect((await swarm.agents.heartbeat('lane-a')).renewedLeases).toBe(0);
    expect(await swarm.leases.list()).toEqual([]);
    // touch: a heartbeat for registered agents only.
    expect(await swarm.agents.touch('lane-a')).toBe(true);
    expect(await swarm.agents.touch('stranger')).toBe(false);
    await swarm.agents.deregister('lane-a');
    expect(await swarm.agents.touch('lane-a')).toBe(false);
    expect(await swarm.agents.reachability('lane-a')).toMatchObject({
      reachable: false,
      why: 'deregistered',
    });
    expect((await swarm.leases.events('sim:a')).map((e) => e.event)).toEqual(['acquired', 'expired']);
    // The account is free again.
    expect((await swarm.leases.acquire({ poolId: 'sim:a', holder: 'lane-b', owner: 'boss' })).holder).toBe(
      'lane-b',
    );
  });
});
