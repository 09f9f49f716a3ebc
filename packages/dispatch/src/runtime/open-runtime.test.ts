import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nowEnv, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { routeTask } from '../route/route-task';
import { openRuntime } from './open-runtime';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('openRuntime with a label equal to another pool id (a hand edit)', () => {
  it('opens, ignores that label (the id wins, its pool shows as its id) and names it in labelConflicts', async () => {
    const home = writeTestHome(mkdtempSync(join(tmpdir(), 'bullswarm-dispatch-')), {
      now: NOW,
      pools: [
        { account: 'ahead', label: 'front', windows: [{ kind: 'weekly', usedPct: 60, resetsInMin: 5040 }] },
        {
          account: 'behind',
          label: 'sim:ahead',
          windows: [{ kind: 'weekly', usedPct: 20, resetsInMin: 5040 }],
        },
      ],
    });
    homes.push(home);
    const text = readFileSync(join(home, 'pool-labels.json'), 'utf8');
    const runtime = await openRuntime({ home, env: nowEnv(NOW) });
    try {
      expect(runtime.labelConflicts).toEqual([{ poolId: 'sim:behind', label: 'sim:ahead' }]);
      expect(runtime.labels.labels).toEqual({ 'sim:ahead': 'front' });
      expect([runtime.label('sim:ahead'), runtime.label('sim:behind')]).toEqual(['front', 'sim:behind']);
      expect(runtime.home.resolvePoolRef('sim:ahead')).toBe('sim:ahead');
      const { snapshots } = await routeTask(runtime, { lane: 'analyze', tier: 'medium', kind: 'single-run' });
      expect(snapshots.pools.map((pool) => pool.label)).toEqual(['front', 'sim:behind']);
    } finally {
      await runtime.close();
    }
    // nothing rewrote the file
    expect(readFileSync(join(home, 'pool-labels.json'), 'utf8')).toBe(text);
  });
});
