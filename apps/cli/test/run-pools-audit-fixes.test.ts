import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { nowEnv, type TestPool, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

// Built-binary tests for the issue-4 audit findings (dispatch and the single-run commands).

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** Half a week gone: `usedPct` 10 → surplus 40, 30 → 20. */
const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];

function home(pools: readonly TestPool[]) {
  const dir = dirs.make();
  writeTestHome(dir, { now: NOW, pools });
  const simLog = join(dir, 'sim.log');
  return {
    home: dir,
    simLog,
    env: { ...nowEnv(NOW), BULLSWARM_SIM_LOG: simLog },
    attemptFiles: (): string[] => {
      const runs = join(dir, 'runs');
      if (!existsSync(runs)) return [];
      return readdirSync(runs).flatMap((run) => readdirSync(join(runs, run)));
    },
  };
}

describe('a pin still passes hard eligibility', () => {
  const pools: TestPool[] = [
    { connector: 'sim', account: 'a', windows: weekly(10) },
    { connector: 'gone', account: 'b' },
  ];

  it('run --worker-pool to a pool whose connector is not installed: unavailable naming it, no attempt file', async () => {
    const f = home(pools);
    const result = await bullswarm(['run', '--lane', 'analyze', '--worker-pool', 'gone:b', 'hi'], {
      home: f.home,
      env: f.env,
    });
    expect(result.stderr).toBe(
      'FAILED [no pool] unavailable: pinned to gone:b (--worker-pool): connector gone is not installed\n',
    );
    expect(result.exitCode).toBe(1);
    expect(f.attemptFiles()).toEqual([]);
    expect(existsSync(f.simLog)).toBe(false);
  });

  it('its --dry-run says the same (NO POOL, exit 1), and --json says unavailable', async () => {
    const f = home(pools);
    const dry = await bullswarm(['run', '--lane', 'analyze', '--dry-run', '--worker-pool', 'gone:b', 'hi'], {
      home: f.home,
      env: f.env,
    });
    expect(dry.stdout).toBe('NO POOL pinned to gone:b (--worker-pool): connector gone is not installed\n');
    expect(dry.exitCode).toBe(1);
    const json = await bullswarm(
      ['run', '--lane', 'analyze', '--dry-run', '--json', '--worker-pool', 'gone:b', 'hi'],
      { home: f.home, env: f.env },
    );
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      kind: 'unavailable',
      poolId: null,
      why: 'pinned to gone:b (--worker-pool): connector gone is not installed',
    });
  });
});

describe('a usage limit keeps out a pool whose meter cannot be read', () => {
  it('echo (no meter source) spent with a named reset: the next dry run does not pick it until then', async () => {
    const f = home([{ connector: 'echo' }]);
    const spent = await bullswarm(['run', '--lane', 'chore', '[sim:usage-limit,resetsInMin=30] hi'], {
      home: f.home,
      env: f.env,
    });
    expect(spent.exitCode).toBe(1);
    expect(spent.stderr).toContain('FAILED [echo] quota: ');
    expect(spent.stderr).toContain('back at 2026-11-30T12:30:00Z\n');
    const next = await bullswarm(['run', '--lane', 'chore', '--dry-run', 'next'], { home: f.home, env: f.env });
    expect(next.stdout).toBe(
      'NO POOL no pool with quota to spare: echo at its 5-hour limit until 2026-11-30T12:30:00Z\n' +
        'back at 2026-11-30T12:30:00Z\n',
    );
    expect(next.exitCode).toBe(1);
    // After the reset the pool is unmetered again and picked.
    const later = await bullswarm(['run', '--lane', 'chore', '--dry-run', 'next'], {
      home: f.home,
      env: nowEnv(NOW + 30 * 60_000),
    });
    expect(later.stdout).toMatch(/^OK \[echo\] /);
    expect(later.exitCode).toBe(0);
  });
});
