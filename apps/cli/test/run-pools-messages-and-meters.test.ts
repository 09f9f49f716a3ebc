import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SIM_CLI_PATH } from '@bullswarm/connectors';
import { openStore } from '@bullswarm/store';
import { nowEnv, type TestPool, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, startBullswarm, tempDirs } from './support/cli';

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
    /** Files of each run folder other than its run record (`run.json`, written when the run starts). */
    attemptFiles: (): string[] => {
      const runs = join(dir, 'runs');
      if (!existsSync(runs)) return [];
      return readdirSync(runs)
        .flatMap((run) => readdirSync(join(runs, run)))
        .filter((name) => name !== 'run.json');
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
    const next = await bullswarm(['run', '--lane', 'chore', '--dry-run', 'next'], {
      home: f.home,
      env: f.env,
    });
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

describe('two runs started together', () => {
  /** Polls `bullswarm assignments --json` until `count` entries are in flight (bounded, not timed). */
  async function waitForInflight(home: string, count: number): Promise<void> {
    for (let i = 0; i < 300; i++) {
      const result = await bullswarm(['assignments', '--json'], { home });
      if (result.exitCode === 0 && JSON.parse(result.stdout).inflight.length === count) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`never ${count} entries in flight`);
  }

  interface RunJson {
    readonly poolId: string;
    readonly candidates: readonly { readonly poolId: string; readonly inflight: number }[];
  }

  it('always see each other: the later pick sees the earlier one in flight (10 trials, no waiting between starts)', async () => {
    for (let trial = 0; trial < 10; trial++) {
      const dir = dirs.make();
      // sim:a surplus 30, sim:b 29: the flat in-flight charge (3) makes a busy sim:a less behind.
      writeTestHome(dir, {
        now: NOW,
        pools: ['a', 'b'].map((account, i) => ({
          connector: 'sim',
          account,
          windows: weekly(20 + i),
          scenario: { default: { scenario: 'slow', ms: 120_000 } },
        })),
      });
      mkdirSync(join(dir, 'work'));
      const options = { home: dir, env: nowEnv(NOW), cwd: join(dir, 'work') };
      const runs = [
        startBullswarm(['run', '--lane', 'analyze', '--json', 'one'], options),
        startBullswarm(['run', '--lane', 'analyze', '--json', 'two'], options),
      ];
      await waitForInflight(dir, 2);
      for (const run of runs) run.kill('SIGTERM');
      const results = (await Promise.all(runs)).map((r) => JSON.parse(String(r.stdout)) as RunJson);
      // One went to sim:a with nothing in flight; the other saw it there and went to sim:b.
      expect(results.map((r) => r.poolId).sort(), `trial ${trial}`).toEqual(['sim:a', 'sim:b']);
      const later = results.find((r) => r.poolId === 'sim:b')!;
      expect(later.candidates.find((c) => c.poolId === 'sim:a')?.inflight, `trial ${trial}`).toBe(1);
      const earlier = results.find((r) => r.poolId === 'sim:a')!;
      expect(
        earlier.candidates.every((c) => c.inflight === 0),
        `trial ${trial}`,
      ).toBe(true);
    }
  }, 240_000);
});

describe('pools add --command', () => {
  it('runs the pool through its own command; pools and --json show it; a missing one is unavailable, naming the path', async () => {
    const f = home([]);
    const marker = join(f.home, 'wrapper-ran');
    const wrapper = join(f.home, 'my-echo.sh');
    writeFileSync(
      wrapper,
      `#!/bin/sh\necho "$@" > ${JSON.stringify(marker)}\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(SIM_CLI_PATH)} "$@"\n`,
      { mode: 0o755 },
    );
    // A relative path is stored absolute.
    const added = await bullswarm(['pools', 'add', 'echo', '--command', './my-echo.sh'], {
      home: f.home,
      env: f.env,
      cwd: f.home,
    });
    expect(added.exitCode).toBe(0);
    const pools = await bullswarm(['pools'], { home: f.home, env: f.env });
    expect(pools.stdout).toMatch(new RegExp(` command=${wrapper.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n$`));
    const json = JSON.parse((await bullswarm(['pools', '--json'], { home: f.home, env: f.env })).stdout);
    expect(json.pools[0]).toMatchObject({ id: 'echo', command: wrapper });

    const ran = await bullswarm(['run', '--lane', 'chore', 'hello there'], { home: f.home, env: f.env });
    expect(ran.exitCode).toBe(0);
    expect(ran.stdout).toBe('hello there\n');
    expect(readFileSync(marker, 'utf8')).toBe('--format text --cwd ' + process.cwd() + ' -p hello there\n');

    const missing = join(f.home, 'no-such-agent');
    await bullswarm(['pools', 'remove', 'echo'], { home: f.home, env: f.env });
    await bullswarm(['pools', 'add', 'echo', '--command', missing], { home: f.home, env: f.env });
    // Never spawned (issue 10): the pool is unavailable, and the run says why.
    const failed = await bullswarm(['run', '--lane', 'chore', 'hello'], { home: f.home, env: f.env });
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain(
      `FAILED [no pool] unavailable: no eligible pool: echo ${missing} does not exist`,
    );
  });
});

describe('--json on the pool and strategy changes', () => {
  it('pools enable|disable|remove and strategy assign|unassign|set-subscription print the changed record', async () => {
    const f = home([
      { connector: 'sim', account: 'a', windows: weekly(10) },
      { connector: 'sim', account: 'b', windows: weekly(10) },
    ]);
    const json = async (args: string[]) => {
      const result = await bullswarm([...args, '--json'], { home: f.home, env: f.env });
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      return JSON.parse(result.stdout);
    };
    expect(await json(['pools', 'disable', 'sim:a'])).toMatchObject({
      pool: { id: 'sim:a', enabled: false },
      poolLabel: 'sim:a',
    });
    expect(await json(['pools', 'enable', 'sim:a'])).toMatchObject({ pool: { id: 'sim:a', enabled: true } });
    expect(await json(['strategy', 'assign', 'high', '--pool', 'sim:b', '--model', 'sim/max'])).toEqual({
      tier: 'high',
      assignment: { pool: 'sim:b', model: 'sim/max' },
      poolLabel: 'sim:b',
    });
    expect(await json(['strategy', 'unassign', 'high'])).toEqual({
      tier: 'high',
      removed: true,
      assignment: { pool: 'sim:b', model: 'sim/max' },
    });
    expect(
      await json([
        'strategy',
        'set-subscription',
        'sim:a',
        '--quota-window',
        'monthly',
        '--resets-at',
        '2026-12-01T00:00:00Z',
      ]),
    ).toMatchObject({
      pool: { id: 'sim:a', subscription: { quotaWindow: 'monthly', resetsAt: '2026-12-01T00:00:00Z' } },
    });
    await json(['strategy', 'assign', 'high', '--pool', 'sim:b', '--model', 'sim/max']);
    expect(await json(['pools', 'remove', 'sim:b'])).toMatchObject({
      removed: { id: 'sim:b', connector: 'sim', account: 'b' },
      poolLabel: 'sim:b',
      droppedAssignments: ['high'],
    });
  });
});

describe('strategy unassign', () => {
  it('an unknown tier is exit 2 naming it and the known tiers; a known unassigned one is not an error', async () => {
    const f = home([{ connector: 'sim', account: 'a', windows: weekly(10) }]);
    const bogus = await bullswarm(['strategy', 'unassign', 'bogus'], { home: f.home, env: f.env });
    expect(bogus.exitCode).toBe(2);
    expect(bogus.stderr).toContain('<tier> "bogus" is not a tier: expected one of low, medium, high');
    const known = await bullswarm(['strategy', 'unassign', 'medium'], { home: f.home, env: f.env });
    expect(known.exitCode).toBe(0);
    expect(known.stdout).toBe('tier medium had no assignment (nothing to do)\n');
  });
});

describe('the FAILED line', () => {
  it('a stall says "stalled: no output for …" once, not "stalled: stalled:"', async () => {
    const f = home([
      { connector: 'sim', account: 'a', windows: weekly(10), scenario: { default: { scenario: 'stall' } } },
    ]);
    const result = await bullswarm(['run', '--lane', 'analyze', '--retry-attempts', '0', 'hi'], {
      home: f.home,
      env: { ...f.env, BULLSWARM_WORKER_SILENCE_SEC: '1' },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^FAILED \[sim:a\] stalled: no output for 1s$/m);
    expect(result.stderr).not.toContain('stalled: stalled');
  });
});

describe('sub-minute durations read in seconds', () => {
  it('strategy p50=40s, assignments "(20s ago)  expected 30s", pools "retry in 30s"', async () => {
    const f = home([
      { connector: 'echo' },
      { connector: 'grok', meter: { type: 'file' }, windows: weekly(10) },
    ]);
    const store = openStore({ dbPath: join(f.home, 'bullswarm.db') });
    try {
      for (const i of [0, 1, 2]) {
        store.runs.append({
          id: `r${i}`,
          poolId: 'echo',
          tier: 'low',
          lane: 'chore',
          action: 'run',
          startedAt: NOW - 3_600_000,
          endedAt: NOW - 3_600_000 + 40_000,
          stalled: false,
          outcome: 'ok',
          workerMinutes: 40 / 60,
        });
      }
      store.ledger.record({
        poolId: 'echo',
        action: 'run-live',
        startedAt: NOW - 20_000,
        expectedMinutes: 0.5,
        pid: process.pid,
      });
    } finally {
      store.close();
    }
    const strategy = await bullswarm(['strategy'], { home: f.home, env: f.env });
    expect(strategy.stdout).toMatch(/^echo +low +echo \(free\) +p50=40s n=3 /m);
    const assignments = await bullswarm(['assignments'], { home: f.home, env: f.env });
    expect(assignments.stdout).toBe(
      `echo  run-live  started 2026-11-30T11:59:40Z (20s ago)  expected 30s  pid ${process.pid}  worker -\n`,
    );
    // The grok meter file goes away: the failed poll holds the reading for 30 s.
    expect((await bullswarm(['pools'], { home: f.home, env: f.env })).exitCode).toBe(0);
    rmSync(join(f.home, 'meters', 'grok.json'));
    const pools = await bullswarm(['pools'], { home: f.home, env: nowEnv(NOW + 10 * 60_000) });
    expect(pools.stdout).toContain('[stale · no meter file, retry in 30s]');
  });
});
