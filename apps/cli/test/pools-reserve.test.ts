import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nowEnv, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-09-10T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/**
 * sim:a has used 86% of a week that is 94% gone (600 minutes left) and 10% of its 5-hour window;
 * sim:b has used 60% of a week half gone. Without a reserve sim:a is further behind (+8 vs −10).
 */
function reserveHome() {
  const home = dirs.make('bullswarm-cli-reserve-');
  writeTestHome(home, {
    now: NOW,
    pools: [
      {
        connector: 'sim',
        account: 'a',
        windows: [
          { kind: 'five_hour', usedPct: 10, resetsInMin: 150 },
          { kind: 'weekly', usedPct: 86, resetsInMin: 600 },
        ],
      },
      { connector: 'sim', account: 'b', windows: [{ kind: 'weekly', usedPct: 60, resetsInMin: 5040 }] },
    ],
  });
  const run = (args: string[]) => bullswarm(args, { home, env: nowEnv(NOW) });
  const statePool = (id: string) =>
    JSON.parse(readFileSync(join(home, 'state.json'), 'utf8')).pools.find(
      (pool: { id: string }) => pool.id === id,
    );
  return { home, run, statePool };
}

describe('bullswarm pools reserve', () => {
  it('round trip: set, show, route around it, pin into it, drop one window, clear', async () => {
    const h = reserveHome();
    expect((await h.run(['pools', 'reserve', 'sim:a'])).stdout).toBe('sim:a keeps no reserve\n');
    const before = await h.run(['run', '--lane', 'analyze', '--dry-run', 'x']);
    expect(before.stdout).toMatch(/^OK \[sim:a\] /);

    const set = await h.run(['pools', 'reserve', 'sim:a', '--5h', '20', '--weekly', '15']);
    expect(set).toMatchObject({ exitCode: 0, stderr: '' });
    expect(set.stdout).toBe('sim:a keeps for you: 5h 20% (spent at 80%), weekly 15% (spent at 85%)\n');
    expect(h.statePool('sim:a').reserves).toEqual({ five_hour: 20, weekly: 15 });
    const shown = await h.run(['pools', 'reserve', 'sim:a', '--json']);
    expect(JSON.parse(shown.stdout)).toEqual({
      poolId: 'sim:a',
      poolLabel: 'sim:a',
      reserves: { five_hour: 20, weekly: 15 },
    });

    // 86% of the week is inside its 15% reserve: RESERVED in pools, and the reserve in --json.
    const pools = await h.run(['pools']);
    const line = pools.stdout.split('\n').find((l) => l.startsWith('sim:a '))!;
    expect(line).toMatch(/ RESERVED weekly \(15% kept\) until 2026-09-10T22:00:00Z$/);
    // The surplus reads against the usable 85 points: 94.05% elapsed − 86 / 0.85 = −7.1.
    expect(line).toContain(' weekly used 86% elapsed 94% [cache] surplus=-7.1 ');
    const json = JSON.parse((await h.run(['pools', '--json'])).stdout);
    const a = json.pools.find((p: { id: string }) => p.id === 'sim:a');
    expect(a).toMatchObject({
      state: 'reserved',
      // 101% of its usable part and ahead of its clock: draining too (#18's state), reserved first.
      states: ['reserved', 'draining'],
      reserves: { five_hour: 20, weekly: 15 },
      reservedWindows: [{ window: 'weekly', until: '2026-09-10T22:00:00Z', reservePct: 15 }],
      spentWindows: [],
    });
    expect(json.pools.find((p: { id: string }) => p.id === 'sim:b').reserves).toEqual({});

    // Routing leaves it out like a spent window, naming the reserve.
    const dry = await h.run(['run', '--lane', 'analyze', '--dry-run', 'x']);
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout.split('\n')[0]).toBe(
      'OK [sim:b] most-behind capable pool (surplus -10) (burst-gated: sim:a inside its 15% weekly reserve)',
    );
    // A pin may use the reserve, and says so.
    const pinned = await h.run(['run', '--lane', 'analyze', '--dry-run', '--worker-pool', 'sim:a', 'x']);
    expect(pinned.exitCode).toBe(0);
    expect(pinned.stdout.split('\n')[0]).toMatch(
      /^OK \[sim:a\] pinned to sim:a \(--worker-pool\) · surplus -7\.1, 5h used 10% · uses its 15% weekly reserve \(pinned\)/,
    );
    // The capacity verdict counts the reserve as used: 100 − 86 − 15 < 0 → 0% free, critical.
    const capacity = JSON.parse((await h.run(['capacity', '--pool', 'sim:a', '--json'])).stdout);
    expect(capacity).toMatchObject({ verdict: 'critical', freePct: 0 });

    const dropped = await h.run(['pools', 'reserve', 'sim:a', '--weekly', '0']);
    expect(dropped.stdout).toBe('sim:a keeps for you: 5h 20% (spent at 80%)\n');
    expect(h.statePool('sim:a').reserves).toEqual({ five_hour: 20 });
    expect((await h.run(['run', '--lane', 'analyze', '--dry-run', 'x'])).stdout).toMatch(/^OK \[sim:a\] /);

    const cleared = await h.run(['pools', 'reserve', 'sim:a', '--clear', '--json']);
    expect(JSON.parse(cleared.stdout)).toEqual({
      poolId: 'sim:a',
      poolLabel: 'sim:a',
      reserves: {},
      cleared: true,
    });
    expect(h.statePool('sim:a').reserves).toBeUndefined();
    expect((await h.run(['pools', 'reserve', 'sim:a', '--clear'])).stdout).toBe('sim:a had no reserve\n');
  });

  it.each([
    [
      ['--weekly', '95'],
      '--weekly "95" is not valid: expected a share from 0 to 90, whole or with one decimal',
    ],
    [['--weekly', '12.25'], '--weekly "12.25" is not valid'],
    [['--5h', 'lots'], '--5h "lots" is not valid'],
    [['--weekly', '-5'], '--weekly "-5" is not valid'],
    [
      ['--monthly', '10'],
      '--monthly: pool sim:a does not report a monthly window; the windows it has: 5h, weekly',
    ],
    [['--clear', '--weekly', '5'], '--clear takes no window flag'],
  ])('refuses %j with exit 2 and writes nothing', async (flags, message) => {
    const h = reserveHome();
    const before = readFileSync(join(h.home, 'state.json'), 'utf8');
    const result = await h.run(['pools', 'reserve', 'sim:a', ...flags]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
    expect(readFileSync(join(h.home, 'state.json'), 'utf8')).toBe(before);
  });

  it('accepts one decimal and a trailing %, and names an unknown pool', async () => {
    const h = reserveHome();
    const set = await h.run(['pools', 'reserve', 'sim:b', '--weekly', '12.5%']);
    expect(set.stdout).toBe('sim:b keeps for you: weekly 12.5% (spent at 87.5%)\n');
    const unknown = await h.run(['pools', 'reserve', 'sim:zz', '--weekly', '10']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('sim:zz');
    const help = await h.run(['pools', 'reserve', '--help']);
    expect(help.stdout).toContain('bullswarm pools reserve claude-code:acme --5h 20 --weekly 15');
  });
});
