import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '@bullswarm/store';
import { nowEnv, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const MINUTE = 60_000;
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const readState = (home: string) => JSON.parse(readFileSync(join(home, 'state.json'), 'utf8'));

function home(): string {
  const dir = dirs.make();
  writeTestHome(dir, {
    now: NOW,
    pools: [
      { connector: 'sim', account: 'a', windows: [{ kind: 'weekly', usedPct: 10, resetsInMin: 5040 }] },
      { connector: 'sim', account: 'b', windows: [{ kind: 'weekly', usedPct: 30, resetsInMin: 5040 }] },
      // Free on the low tier only, so medium is decided among the metered sim pools.
      { connector: 'echo', models: { medium: null, high: null } },
    ],
  });
  return dir;
}

describe('bullswarm strategy', () => {
  it('assign/unassign round trip; assign checks the allow-list and the dry run prefers the assigned pool', async () => {
    const dir = home();
    const env = nowEnv(NOW);
    const bad = await bullswarm(['strategy', 'assign', 'medium', '--pool', 'sim:b', '--model', 'sim/max'], {
      home: dir,
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe(
      'error: --model: model "sim/max" is not allowed for tier medium on sim: allowed models are sim/standard\n',
    );
    const badTier = await bullswarm(
      ['strategy', 'assign', 'ultra', '--pool', 'sim:b', '--model', 'sim/max'],
      { home: dir },
    );
    expect(badTier.exitCode).toBe(2);
    expect(badTier.stderr).toContain('connector sim has no tier "ultra": its tiers are low, medium, high');

    const ok = await bullswarm(
      ['strategy', 'assign', 'medium', '--pool', 'sim:b', '--model', 'sim/standard'],
      {
        home: dir,
      },
    );
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toBe('assigned tier medium → sim:b (sim/standard)\n');
    expect(readState(dir).assignments).toEqual({ medium: { pool: 'sim:b', model: 'sim/standard' } });
    expect(readState(dir).pools[1].models).toEqual({ medium: 'sim/standard' });

    const dry = await bullswarm(['run', '--lane', 'analyze', '--dry-run', 'x'], { home: dir, env });
    expect(dry.stdout.split('\n')[0]).toMatch(/^OK \[sim:b\] tier assignment: /);

    const shown = JSON.parse((await bullswarm(['strategy', '--json'], { home: dir, env })).stdout);
    expect(shown.assignments).toEqual([
      { tier: 'medium', poolId: 'sim:b', poolLabel: 'sim:b', model: 'sim/standard' },
    ]);
    expect(
      shown.pools.find((r: { poolId: string; tier: string }) => r.poolId === 'sim:b' && r.tier === 'medium'),
    ).toMatchObject({
      assigned: true,
    });

    const un = await bullswarm(['strategy', 'unassign', 'medium'], { home: dir });
    expect(un.stdout).toBe('unassigned tier medium\n');
    expect(readState(dir).assignments).toEqual({});
    const again = await bullswarm(['strategy', 'unassign', 'medium'], { home: dir });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain('had no assignment');
    const dry2 = await bullswarm(['run', '--lane', 'analyze', '--dry-run', 'x'], { home: dir, env });
    expect(dry2.stdout.split('\n')[0]).toMatch(/^OK \[sim:a\] most-behind capable pool/);
  });

  it('apply sets every pool model per tier to its connector default and pins nothing', async () => {
    const dir = home();
    const result = await bullswarm(['strategy', 'apply', '--json'], { home: dir });
    expect(result.exitCode).toBe(0);
    const state = readState(dir);
    expect(state.pools[0].models).toEqual({ low: 'sim/lite:free', medium: 'sim/standard', high: 'sim/max' });
    expect(state.pools[2].models).toEqual({ low: 'echo', medium: 'echo', high: 'echo' });
    expect(state.assignments).toEqual({});
    expect(JSON.parse(result.stdout).applied).toContainEqual({
      poolId: 'sim:a',
      tier: 'high',
      model: 'sim/max',
    });
  });

  it('set-subscription stores the pacing window override and pools paces from it', async () => {
    const dir = home();
    const bad = await bullswarm(['strategy', 'set-subscription', 'sim:a', '--quota-window', 'yearly'], {
      home: dir,
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("argument 'yearly' is invalid");
    const badDate = await bullswarm(
      ['strategy', 'set-subscription', 'sim:a', '--quota-window', 'monthly', '--resets-at', 'next week'],
      { home: dir },
    );
    expect(badDate.exitCode).toBe(2);
    expect(badDate.stderr).toContain('--resets-at "next week" is not valid: expected an ISO-8601 instant');
    // Dates and times that do not exist are refused, not rolled over (2026-02-30 is not 2026-03-02).
    for (const impossible of [
      '2026-02-30',
      '2026-02-29T00:00:00Z',
      '2026-13-01',
      '2026-12-01T24:00Z',
      '2026-12-01T12:61Z',
    ]) {
      const rolled = await bullswarm(
        ['strategy', 'set-subscription', 'sim:a', '--quota-window', 'monthly', '--resets-at', impossible],
        { home: dir },
      );
      expect(rolled.exitCode, impossible).toBe(2);
      expect(rolled.stderr).toContain(`--resets-at "${impossible}" is not valid`);
    }
    const ok = await bullswarm(
      [
        'strategy',
        'set-subscription',
        'sim:a',
        '--quota-window',
        'monthly',
        '--resets-at',
        '2026-12-01T00:00:00+00:00',
      ],
      { home: dir },
    );
    expect(ok.exitCode).toBe(0);
    expect(readState(dir).pools[0].subscription).toEqual({
      quotaWindow: 'monthly',
      resetsAt: '2026-12-01T00:00:00Z',
    });
    const json = JSON.parse((await bullswarm(['pools', '--json'], { home: dir, env: nowEnv(NOW) })).stdout);
    expect(json.pools.find((p: { id: string }) => p.id === 'sim:a').pacingWindow).toBe('monthly');
  });

  it('shows p50 wall time with its run count, the stall threshold and models per pool and tier', async () => {
    const dir = home();
    const store = openStore({ dbPath: join(dir, 'bullswarm.db') });
    try {
      for (const [i, minutes] of [4, 6, 8].entries()) {
        store.runs.append({
          id: `r${i}`,
          poolId: 'echo',
          tier: 'low',
          lane: 'chore',
          action: 'run',
          startedAt: NOW - 60 * MINUTE,
          endedAt: NOW - 60 * MINUTE + minutes * MINUTE,
          stalled: false,
          outcome: 'ok',
          workerMinutes: minutes,
        });
      }
    } finally {
      store.close();
    }
    const result = await bullswarm(['strategy'], { home: dir, env: nowEnv(NOW) });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('assignments: none');
    expect(result.stdout).toMatch(
      /^echo +low +echo \(free\) +p50=6m n=3 +stall=6m \(p50\) +rates=unmeasured$/m,
    );
    expect(result.stdout).toMatch(/^sim:a +medium +sim\/standard +p50=- n=0 +stall=60m \(metered-default\)/m);
    expect(result.stdout).toMatch(
      /^sim:a +low +sim\/lite:free \(free\) +p50=- n=0 +stall=60m \(free-default\)/m,
    );
  });
});

describe('bullswarm meters', () => {
  it('set shows as [manual] in pools and clear goes back to the source', async () => {
    const dir = home();
    const env = nowEnv(NOW);
    const set = await bullswarm(
      [
        'meters',
        'set',
        'sim:a',
        '--weekly',
        '80',
        '--5h',
        '20',
        '--resets-at',
        'weekly=2026-12-02T12:00:00Z',
      ],
      { home: dir, env },
    );
    expect(set.exitCode).toBe(0);
    const pools = await bullswarm(['pools'], { home: dir, env });
    // 2 days left of 7: 71.4% elapsed − 80% used.
    expect(pools.stdout).toMatch(
      /^sim:a +cost=1 .* weekly used 80% elapsed 71.4% \[manual\] surplus=-8.6 inflight=0 5h=20% /m,
    );
    const cleared = await bullswarm(['meters', 'clear', 'sim:a'], { home: dir, env });
    expect(cleared.stdout).toBe('sim:a: manual reading cleared\n');
    expect((await bullswarm(['pools'], { home: dir, env })).stdout).toMatch(
      /^sim:a +cost=1 .* weekly used 10% /m,
    );
  });

  it('a new set keeps the windows it does not mention; one that leaves the pool unpaced says what to add', async () => {
    const dir = home();
    const env = nowEnv(NOW);
    const meters = (...args: string[]) => bullswarm(['meters', 'set', 'sim:a', ...args], { home: dir, env });
    const first = await meters('--5h', '20', '--resets-at', '5h=2026-11-30T14:00:00Z');
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toBe(
      'warning: sim:a is paced on its weekly window, which this reading has no share of, so its pace is unknown (surplus -): add --weekly <pct> --resets-at weekly=<iso>\n',
    );
    const second = await meters('--weekly', '80');
    expect(second.stdout).toBe(
      'sim:a meter set by hand: weekly 80%\n' +
        'kept from the earlier reading: 5h 20% (resets 2026-11-30T14:00:00Z) (`bullswarm meters clear sim:a` drops every window)\n',
    );
    expect(second.stderr).toBe(
      'warning: sim:a is paced on its weekly window and this reading does not say when it resets, so its pace is unknown (surplus -): add --resets-at weekly=<iso>, e.g. --resets-at weekly=2026-12-01T00:00:00Z\n',
    );
    expect((await bullswarm(['pools'], { home: dir, env })).stdout).toMatch(
      /^sim:a +cost=1 .* weekly used 80% elapsed \?% \[manual\] surplus=- inflight=0 5h=20% /m,
    );
    const third = await meters('--weekly', '80', '--resets-at', 'weekly=2026-12-02T12:00:00Z');
    expect(third.stderr).toBe('');
    // The reset stays with the window; the 5-hour share stays too.
    const fourth = await meters('--weekly', '85');
    expect(fourth.stdout).toContain(
      'sim:a meter set by hand: weekly 85% (resets 2026-12-02T12:00:00Z) (the reset of weekly kept from the earlier reading)\n',
    );
    expect(fourth.stderr).toBe('');
    expect((await bullswarm(['pools'], { home: dir, env })).stdout).toMatch(
      /^sim:a +cost=1 .* weekly used 85% elapsed 71.4% \[manual\] surplus=-13.6 inflight=0 5h=20% /m,
    );
    const json = JSON.parse((await meters('--monthly', '10', '--json')).stdout);
    expect(json.windows.map((w: { kind: string }) => w.kind)).toEqual(['five_hour', 'weekly', 'monthly']);
    expect(json.kept.map((w: { kind: string }) => w.kind)).toEqual(['five_hour', 'weekly']);
  });

  it('a monthly reading on a pool paced weekly points at strategy set-subscription --quota-window monthly', async () => {
    const dir = home();
    const env = nowEnv(NOW);
    const set = await bullswarm(
      ['meters', 'set', 'sim:a', '--monthly', '40', '--resets-at', 'monthly=2026-12-10T00:00:00Z'],
      { home: dir, env },
    );
    expect(set.exitCode).toBe(0);
    expect(set.stderr).toBe(
      'warning: sim:a is paced on its weekly window, which this monthly reading has no share of (pools shows weekly used ?%): if its quota resets monthly, run `bullswarm strategy set-subscription sim:a --quota-window monthly`; else add --weekly <pct>\n',
    );
    expect((await bullswarm(['pools'], { home: dir, env })).stdout).toMatch(/^sim:a +.* weekly used \?% /m);
    const sub = await bullswarm(['strategy', 'set-subscription', 'sim:a', '--quota-window', 'monthly'], {
      home: dir,
      env,
    });
    expect(sub.exitCode).toBe(0);
    expect((await bullswarm(['pools'], { home: dir, env })).stdout).toMatch(
      /^sim:a +.* monthly used 40% elapsed [\d.]+% \[manual\] surplus=/m,
    );
    const again = await bullswarm(['meters', 'set', 'sim:a', '--monthly', '45'], { home: dir, env });
    expect(again.stderr).toBe('');
  });

  it('refuses bad readings naming the flag', async () => {
    const dir = home();
    for (const [args, message] of [
      [
        ['meters', 'set', 'sim:a'],
        'meters set needs at least one of --5h <pct>, --weekly <pct>, --monthly <pct>',
      ],
      [['meters', 'set', 'sim:a', '--weekly', '-3'], '--weekly "-3" is not valid: expected a percentage'],
      [
        ['meters', 'set', 'sim:a', '--weekly', '3', '--resets-at', 'monthly=2026-12-01T00:00:00Z'],
        '--resets-at names the monthly window, which is not being set',
      ],
      [
        ['meters', 'set', 'sim:a', '--weekly', '3', '--resets-at', 'yearly=2026-12-01T00:00:00Z'],
        '--resets-at window "yearly" is not valid',
      ],
      [['meters', 'set', 'nope', '--weekly', '3'], 'unknown pool "nope"'],
    ] as const) {
      const result = await bullswarm([...args], { home: dir });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
  });

  it('claude-statusline captures the rate limits for the claude-code meter and prints a status line', async () => {
    const root = dirs.make();
    const configDir = join(root, '.claude-acme');
    const status = {
      model: { display_name: 'Opus' },
      rate_limits: {
        five_hour: { used_percentage: 23.5, resets_at: 1_796_040_000 },
        seven_day: { used_percentage: 41, resets_at: 1_796_400_000 },
      },
    };
    const result = await bullswarm(['meters', 'claude-statusline', '--config-dir', configDir], {
      input: JSON.stringify(status),
      env: nowEnv(NOW),
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('Opus · 5h 23.5% · week 41%\n');
    const captured = JSON.parse(readFileSync(join(configDir, 'bullswarm-statusline.json'), 'utf8'));
    expect(captured).toMatchObject({
      readAt: '2026-11-30T12:00:00.000Z',
      windows: [
        { kind: 'five_hour', usedPct: 23.5, resetsAt: 1_796_040_000_000 },
        { kind: 'weekly', usedPct: 41, resetsAt: 1_796_400_000_000 },
      ],
    });
    // Before Claude's first response there are no rate limits: nothing is written.
    const other = join(root, '.claude-other');
    const early = await bullswarm(['meters', 'claude-statusline', '--config-dir', other], {
      input: '{"model":{"display_name":"Sonnet"}}',
    });
    expect(early.stdout).toBe('Sonnet\n');
    expect(existsSync(join(other, 'bullswarm-statusline.json'))).toBe(false);
    const bad = await bullswarm(['meters', 'claude-statusline', '--config-dir', other], {
      input: 'not json',
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('stdin is not valid JSON: expected a value, found "n" at line 1, column 1');
  });
});

describe('bullswarm assignments', () => {
  it('lists what is in flight across processes and reaps entries of dead processes', async () => {
    const dir = home();
    expect((await bullswarm(['assignments'], { home: dir })).stdout).toBe('nothing in flight\n');
    const store = openStore({ dbPath: join(dir, 'bullswarm.db') });
    try {
      store.ledger.record({
        poolId: 'sim:a',
        action: 'run-live',
        lane: 'analyze',
        tier: 'medium',
        startedAt: NOW - 3 * MINUTE,
        expectedMinutes: 5.67,
        pid: process.pid,
      });
      // A process that no longer exists: the entry must be reaped, not listed.
      store.ledger.record({ poolId: 'sim:b', action: 'run-dead', startedAt: NOW, pid: 2 ** 22 - 3 });
    } finally {
      store.close();
    }
    await bullswarm(['pools', 'label', 'sim:a', 'alpha'], { home: dir });
    const result = await bullswarm(['assignments'], { home: dir, env: nowEnv(NOW) });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      `alpha  run-live  started 2026-11-30T11:57:00Z (3m ago)  expected 5.7m  pid ${process.pid}  worker -\n`,
    );
    const json = JSON.parse(
      (await bullswarm(['assignments', '--json'], { home: dir, env: nowEnv(NOW) })).stdout,
    );
    expect(json.inflight).toHaveLength(1);
    expect(json.inflight[0]).toMatchObject({
      poolId: 'sim:a',
      poolLabel: 'alpha',
      action: 'run-live',
      tier: 'medium',
      expectedMinutes: 5.67,
      pid: process.pid,
      workerPid: null,
    });
  });
});
