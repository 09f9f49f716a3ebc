import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorker } from '../test-support/run-worker';
import { openTestSwarm, tempDirs } from '../test-support/swarm-fixture';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('a lease held by a killed process', () => {
  it('is released after its expiry and not before', async () => {
    const dir = dirs.make();
    const { swarm, now, storeUrl } = await openTestSwarm(dir);
    const ttlMs = 600_000; // a short TTL, given as the lease's own (BULLSWARM_LEASE_TTL_SEC in the CLI)
    const holder = startWorker('hold-lease', {
      ...(storeUrl === undefined ? { dbPath: join(dir, 'bullswarm.db') } : { storeUrl }),
      hostId: 'test-host', // this host: the holder's process is judged by its pid
      address: 'lane-x',
      pool: 'sim:x',
      owner: 'boss',
      ttlMs,
      heartbeatMs: 20,
    });
    expect(await holder.nextLine()).toBe('ready');
    // Let it heartbeat twice (it says so after each), then kill it hard (no cleanup of any kind runs).
    const first = (await swarm.agents.get('lane-x'))!.heartbeatAt;
    expect(await holder.nextLine()).toBe('beat');
    expect(await holder.nextLine()).toBe('beat');
    expect((await swarm.agents.get('lane-x'))!.heartbeatAt).toBeGreaterThan(first);
    holder.child.kill('SIGKILL');
    expect((await holder.exited).signal).toBe('SIGKILL');

    // The holder is gone (its process is dead) but its lease stands until expiry.
    now.value = Date.now();
    expect(await swarm.agents.reachability('lane-x')).toMatchObject({ reachable: false });
    expect((await swarm.agents.reachability('lane-x')).why).toMatch(/its process \d+ is gone/);
    const held = await swarm.leases.list();
    expect(held.map((l) => l.holder)).toEqual(['lane-x']);
    const { renewedAt, expiresAt } = held[0]!;
    expect(expiresAt).toBe(renewedAt + ttlMs);

    // One millisecond before expiry: still held; a second lease is refused.
    now.value = expiresAt - 1;
    expect((await swarm.leases.list()).map((l) => l.holder)).toEqual(['lane-x']);
    await expect(
      (async () => await swarm.leases.acquire({ poolId: 'sim:x', holder: 'lane-y', owner: 'boss' }))(),
    ).rejects.toThrow(/held by lane-x/);

    // At expiry: released, recorded as expired at its expiry time, and the account can be leased again.
    now.value = expiresAt;
    expect(await swarm.leases.list()).toEqual([]);
    expect((await swarm.leases.events('sim:x')).at(-1)).toMatchObject({
      event: 'expired',
      holder: 'lane-x',
      at: expiresAt,
    });
    expect((await swarm.leases.acquire({ poolId: 'sim:x', holder: 'lane-y', owner: 'boss' })).holder).toBe(
      'lane-y',
    );
  });
});
