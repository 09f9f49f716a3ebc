import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nowEnv, type TestPool, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { openRuntime } from '../runtime/open-runtime';
import { routeTask } from './route-task';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

async function runtimeFor(pools: readonly TestPool[], env: Record<string, string> = {}) {
  const home = writeTestHome(mkdtempSync(join(tmpdir(), 'bullswarm-dispatch-')), { now: NOW, pools });
  homes.push(home);
  return openRuntime({ home, env: { ...nowEnv(NOW), ...env } });
}

describe('routeTask over a real home', () => {
  it('reads each sim pool meter from its file and picks the most-behind pool', async () => {
    const runtime = await runtimeFor([
      // 70% of the week elapsed (3 days left of 7 = 57.1% elapsed? use resets to set elapsed)
      { account: 'ahead', windows: [{ kind: 'weekly', usedPct: 60, resetsInMin: 5040 }] }, // 50% elapsed → -10
      { account: 'behind', windows: [{ kind: 'weekly', usedPct: 20, resetsInMin: 5040 }] }, // 50% elapsed → +30
    ]);
    try {
      const { decision, snapshots } = await routeTask(runtime, {
        lane: 'analyze',
        tier: 'medium',
        kind: 'single-run',
      });
      expect(snapshots.pools.map((p) => p.meter.status)).toEqual(['live', 'live']);
      expect(decision.poolId).toBe('sim:behind');
      expect(decision.reason).toBe('most-behind capable pool (surplus 30)');
      expect(decision.model).toBe('sim/standard');
    } finally {
      await runtime.close();
    }
  });

  it('serves the second read of a meter from the cache', async () => {
    const runtime = await runtimeFor([
      { account: 'a', windows: [{ kind: 'weekly', usedPct: 10, resetsInMin: 5040 }] },
    ]);
    try {
      await routeTask(runtime, { lane: 'analyze', tier: 'medium', kind: 'single-run' });
      const { snapshots } = await routeTask(runtime, { lane: 'analyze', tier: 'medium', kind: 'single-run' });
      expect(snapshots.pools[0]?.meter.status).toBe('cache');
    } finally {
      await runtime.close();
    }
  });

  it('never routes to the caller named by BULLSWARM_POOL, and says so', async () => {
    const runtime = await runtimeFor(
      [
        { account: 'a', windows: [{ kind: 'weekly', usedPct: 0, resetsInMin: 5040 }] },
        { account: 'b', windows: [{ kind: 'weekly', usedPct: 40, resetsInMin: 5040 }] },
      ],
      { BULLSWARM_POOL: 'sim:a' },
    );
    try {
      const { decision, callers } = await routeTask(runtime, {
        lane: 'analyze',
        tier: 'medium',
        kind: 'single-run',
      });
      expect(callers).toEqual([{ poolId: 'sim:a', evidence: 'BULLSWARM_POOL=sim:a' }]);
      expect(decision.poolId).toBe('sim:b');
      expect(decision.reason).toContain('sim:a');
      expect(decision.reason).toContain('the caller');
    } finally {
      await runtime.close();
    }
  });

  it('a pin on the caller is no pick: unavailable, saying why', async () => {
    const runtime = await runtimeFor(
      [
        { account: 'a', windows: [{ kind: 'weekly', usedPct: 0, resetsInMin: 5040 }] },
        { account: 'b', windows: [{ kind: 'weekly', usedPct: 40, resetsInMin: 5040 }] },
      ],
      { BULLSWARM_POOL: 'sim:a' },
    );
    try {
      const { decision } = await routeTask(runtime, {
        lane: 'analyze',
        tier: 'medium',
        kind: 'single-run',
        pin: { poolId: 'sim:a', source: 'operator', shownAs: '--worker-pool' },
      });
      expect(decision.poolId).toBeNull();
      expect(decision.noPoolKind).toBe('unavailable');
      expect(decision.reason).toBe(
        'pinned to sim:a (--worker-pool): it is the caller (BULLSWARM_POOL=sim:a): ' +
          'the agent CLI that invoked bullswarm is never a pool of its own run',
      );
    } finally {
      await runtime.close();
    }
  });

  it('charges work in the shared ledger against its pool', async () => {
    const runtime = await runtimeFor([
      { account: 'a', windows: [{ kind: 'weekly', usedPct: 20, resetsInMin: 5040 }] },
      { account: 'b', windows: [{ kind: 'weekly', usedPct: 21, resetsInMin: 5040 }] },
    ]);
    try {
      const store = await runtime.requireStore();
      await store.ledger.record({
        poolId: 'sim:a',
        action: 'other-run',
        startedAt: NOW - 60_000,
        pid: process.pid,
      });
      const { decision } = await routeTask(runtime, { lane: 'analyze', tier: 'medium', kind: 'single-run' });
      expect(decision.poolId).toBe('sim:b');
      expect(decision.candidates.find((c) => c.poolId === 'sim:a')?.inflight).toBe(1);
      expect(decision.reason).toContain('preferred over busier: sim:a (1 in flight)');
    } finally {
      await runtime.close();
    }
  });

  it('leaves out a pool whose connector is not installed, naming why', async () => {
    const runtime = await runtimeFor([
      { account: 'a', windows: [{ kind: 'weekly', usedPct: 20, resetsInMin: 5040 }] },
      { account: 'x', connector: 'nosuch' },
    ]);
    try {
      const { decision } = await routeTask(runtime, { lane: 'analyze', tier: 'medium', kind: 'single-run' });
      expect(decision.poolId).toBe('sim:a');
      const rejected = decision.rejected.find((r) => r.poolId === 'nosuch:x');
      expect(rejected?.reason).toContain('connector nosuch is not installed');
    } finally {
      await runtime.close();
    }
  });
});
