import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { nowEnv, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** Two sim pools: `behind` (+30) and `ahead` (−10), half their week gone. */
function simHome(): { home: string; simLog: string; env: Record<string, string> } {
  const home = dirs.make();
  writeTestHome(home, {
    now: NOW,
    pools: [
      {
        connector: 'sim',
        account: 'behind',
        windows: [
          { kind: 'five_hour', usedPct: 10, resetsInMin: 150 },
          { kind: 'weekly', usedPct: 20, resetsInMin: 5040 },
        ],
      },
      { connector: 'sim', account: 'ahead', windows: [{ kind: 'weekly', usedPct: 60, resetsInMin: 5040 }] },
    ],
  });
  const simLog = join(home, 'sim.log');
  return { home, simLog, env: { ...nowEnv(NOW), BULLSWARM_SIM_LOG: simLog } };
}

describe('bullswarm run --dry-run', () => {
  it('prints OK [<pool>] <reason> and the forecast line, and spawns nothing', async () => {
    const { home, simLog, env } = simHome();
    const result = await bullswarm(['run', '--lane', 'analyze', '--dry-run', 'Explain the parser'], {
      home,
      env,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      'OK [sim:behind] most-behind capable pool (surplus 30)\n' +
        'forecast: inflight=0 5h 10%->10% expected=5.67m rate=unmeasured basis=bootstrap\n',
    );
    expect(result.stderr).toBe('');
    // No sim ran (the sim logs every invocation), no attempt files, nothing in flight.
    expect(existsSync(simLog)).toBe(false);
    expect(existsSync(join(home, 'runs'))).toBe(false);
  });

  it('--json carries the decision and every candidate row in preference order', async () => {
    const { home, simLog, env } = simHome();
    const result = await bullswarm(['run', '--lane', 'build', '--dry-run', '--json', 'Fix it'], {
      home,
      env,
    });
    expect(result.exitCode).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({
      ok: true,
      dryRun: true,
      kind: 'ok',
      poolId: 'sim:behind',
      poolLabel: 'sim:behind',
      model: 'sim/max',
      tier: 'high',
      reason: 'most-behind capable pool (surplus 30)',
      why: null,
      backAt: null,
      answer: null,
      attempts: [],
      runDir: null,
      forecast: 'forecast: inflight=0 5h 10%->10% expected=12.00m rate=unmeasured basis=bootstrap',
    });
    expect(json.candidates.map((c: { poolId: string }) => c.poolId)).toEqual(['sim:behind', 'sim:ahead']);
    const [first, second] = json.candidates;
    for (const field of [
      'pace',
      'effectiveSurplus',
      'inflight',
      'projectedFiveHourPct',
      'forecastFiveHourPct',
      'ratePerMinute',
      'estimateSource',
      'nearFiveHourPenalty',
      'forecastOverLimit',
      'forecastGated',
      'expiringSoon',
      'urgency',
      'urgent',
      'poolLabel',
    ]) {
      expect(first).toHaveProperty(field);
    }
    expect(first).toMatchObject({
      poolLabel: 'sim:behind',
      inflight: 0,
      projectedFiveHourPct: 10,
      forecastFiveHourPct: 10,
      ratePerMinute: null,
      estimateSource: 'bootstrap',
      nearFiveHourPenalty: false,
      forecastOverLimit: false,
      forecastGated: false,
      expiringSoon: false,
      urgency: null,
      pacingResetsAt: '2026-12-04T00:00:00Z',
    });
    expect(first.pace).toBeCloseTo(30, 9);
    expect(second.pace).toBeCloseTo(-10, 9);
    expect(second.projectedFiveHourPct).toBeNull();
    expect(existsSync(simLog)).toBe(false);
  });

  it('an unknown surplus is null in --json, never 0: run --dry-run candidates and pools --json', async () => {
    const home = dirs.make();
    writeTestHome(home, {
      now: NOW,
      pools: [
        { connector: 'sim', account: 'unmetered', meter: { type: 'none' } },
        {
          connector: 'sim',
          account: 'metered',
          windows: [{ kind: 'weekly', usedPct: 60, resetsInMin: 5040 }],
        },
      ],
    });
    const env = nowEnv(NOW);
    const dry = await bullswarm(['run', '--lane', 'analyze', '--dry-run', '--json', 'hi'], { home, env });
    expect(dry.exitCode).toBe(0);
    const rows = (
      JSON.parse(dry.stdout) as {
        candidates: { poolId: string; pace: number | null; effectiveSurplus: number | null }[];
      }
    ).candidates;
    const byId = new Map(rows.map((row) => [row.poolId, row]));
    expect(byId.get('sim:unmetered')).toMatchObject({ pace: null, effectiveSurplus: null });
    expect(byId.get('sim:metered')?.effectiveSurplus).toBeCloseTo(-10, 6);
    const pools = await bullswarm(['pools', '--json'], { home, env });
    const views = (
      JSON.parse(pools.stdout) as {
        pools: { id: string; pace: number | null; effectiveSurplus: number | null }[];
      }
    ).pools;
    expect(views.find((view) => view.id === 'sim:unmetered')).toMatchObject({
      pace: null,
      effectiveSurplus: null,
    });
    expect(views.find((view) => view.id === 'sim:metered')?.effectiveSurplus).toBeCloseTo(-10, 6);
  });

  it('pins with --worker-pool and says it was pinned', async () => {
    const { home, env } = simHome();
    const result = await bullswarm(
      ['run', '--lane', 'analyze', '--dry-run', '--worker-pool', 'sim:ahead', 'x'],
      {
        home,
        env,
      },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(
      /^OK \[sim:ahead\] pinned to sim:ahead \(--worker-pool\) · surplus -10/,
    );
  });

  it('prints NO POOL with the reason and when a pool is back, exit 1', async () => {
    const home = dirs.make();
    writeTestHome(home, {
      now: NOW,
      pools: [
        {
          connector: 'sim',
          account: 'a',
          windows: [
            { kind: 'five_hour', usedPct: 100, resetsInMin: 90 },
            { kind: 'weekly', usedPct: 20, resetsInMin: 5040 },
          ],
        },
        { connector: 'sim', account: 'b', windows: [{ kind: 'weekly', usedPct: 100, resetsInMin: 600 }] },
      ],
    });
    const result = await bullswarm(['run', '--lane', 'analyze', '--dry-run', 'x'], {
      home,
      env: nowEnv(NOW),
    });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe(
      'NO POOL no pool with quota to spare: sim:a at its 5-hour limit until 2026-11-30T13:30:00Z; ' +
        'sim:b at its weekly limit until 2026-11-30T22:00:00Z\n' +
        'back at 2026-11-30T13:30:00Z\n',
    );
    const json = JSON.parse(
      (await bullswarm(['run', '--lane', 'analyze', '--dry-run', '--json', 'x'], { home, env: nowEnv(NOW) }))
        .stdout,
    );
    expect(json).toMatchObject({ ok: false, kind: 'quota', poolId: null, backAt: '2026-11-30T13:30:00Z' });
    expect(json.rejected.map((r: { poolId: string; kind: string }) => [r.poolId, r.kind])).toEqual([
      ['sim:a', 'spent'],
      ['sim:b', 'spent'],
    ]);
  });

  it('--json names the kind a real run of the same pick ends with: no-eligible-pool when every pool is disabled', async () => {
    const home = dirs.make();
    writeTestHome(home, {
      now: NOW,
      pools: [
        {
          connector: 'sim',
          account: 'a',
          enabled: false,
          windows: [{ kind: 'weekly', usedPct: 20, resetsInMin: 5040 }],
        },
      ],
    });
    for (const flags of [['--dry-run', '--json'], ['--json']]) {
      const result = await bullswarm(['run', '--lane', 'analyze', ...flags, 'x'], { home, env: nowEnv(NOW) });
      expect(result.exitCode).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, kind: 'no-eligible-pool', poolId: null });
    }
  });

  it('reads the prompt from stdin with "-" and from --prompt-file; an empty prompt is a usage error', async () => {
    const { home, env } = simHome();
    const fromStdin = await bullswarm(['run', '--lane', 'chore', '--dry-run', '-'], {
      home,
      env,
      input: 'tidy up\n',
    });
    expect(fromStdin.exitCode).toBe(0);
    expect(fromStdin.stdout).toMatch(/^OK \[sim:/);
    const missing = await bullswarm(
      ['run', '--lane', 'chore', '--dry-run', '--prompt-file', join(home, 'nope.txt')],
      {
        home,
        env,
      },
    );
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`--prompt-file ${join(home, 'nope.txt')}: cannot read it (ENOENT)`);
    const empty = await bullswarm(['run', '--lane', 'chore', '--dry-run'], { home, env });
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('missing <prompt>');
    expect(readdirSync(home).includes('runs')).toBe(false);
  });

  it('refuses --worker-pool naming the caller, exit 2, saying why (real and dry runs)', async () => {
    const { home, simLog, env } = simHome();
    for (const dry of [['--dry-run'], []]) {
      const result = await bullswarm(
        ['run', '--lane', 'analyze', ...dry, '--worker-pool', 'sim:ahead', 'x'],
        {
          home,
          env: { ...env, BULLSWARM_POOL: 'sim:ahead' },
        },
      );
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(
        '--worker-pool sim:ahead: it is the caller (BULLSWARM_POOL=sim:ahead): the agent CLI that invoked bullswarm is never a pool of its own run',
      );
    }
    expect(existsSync(simLog)).toBe(false);
  });

  it('accepts --no-caller and ignores it', async () => {
    const { home, env } = simHome();
    const result = await bullswarm(['run', '--lane', 'analyze', '--dry-run', '--no-caller', 'x'], {
      home,
      env,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^OK \[sim:behind\] most-behind capable pool/);
    const help = await bullswarm(['run', '--help']);
    expect(help.stdout).toContain('--no-caller');
    expect(help.stdout).toContain('on its way out');
  });
});
