import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_WINDOW_MINUTES } from '@bullswarm/pacing/internal';
import { openStore } from '@bullswarm/store';
import { meterFileOf, nowEnv, type TestPool, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-09-10T12:00:00Z');
const WEEK = DEFAULT_WINDOW_MINUTES.weekly;
const FIVE_HOURS = DEFAULT_WINDOW_MINUTES.five_hour;
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/**
 * the worked example of docs/routing.md: two Claude accounts, a Grok subscription, a Codex CLI with no usage
 * reader (disabled), read through file meters. The analyze task's medium tier has a model only on
 * grok and codex (the Claude pools hold none), so a dry run picks grok.
 */
function workedExampleHome(): string {
  const home = dirs.make();
  const pools: TestPool[] = [
    {
      connector: 'claude-code',
      models: { medium: null },
      meter: { type: 'file' },
      windows: [
        { kind: 'weekly', usedPct: 31, resetsInMin: WEEK * (1 - 0.263) },
        { kind: 'five_hour', usedPct: 27, resetsInMin: FIVE_HOURS * (1 - 0.54) },
      ],
    },
    {
      connector: 'claude-code',
      account: 'acme',
      models: { medium: null },
      meter: { type: 'file' },
      windows: [
        { kind: 'weekly', usedPct: 30, resetsInMin: WEEK * (1 - 0.656) },
        { kind: 'five_hour', usedPct: 15, resetsInMin: FIVE_HOURS * (1 - 0.44) },
      ],
    },
    { connector: 'codex', enabled: false, meter: { type: 'none' } },
    {
      connector: 'grok',
      meter: { type: 'file' },
      windows: [{ kind: 'weekly', usedPct: 74, resetsInMin: WEEK * (1 - 0.725) }],
    },
  ];
  writeTestHome(home, { now: NOW, pools });
  return home;
}

describe('bullswarm pools', () => {
  it('prints the worked example of docs/routing.md lines, [cache] once the meters are cached', async () => {
    const home = workedExampleHome();
    const env = nowEnv(NOW);
    const first = await bullswarm(['pools'], { home, env });
    expect(first.exitCode).toBe(0);
    // The first read goes to the meter files (live, no marker) …
    expect(first.stdout).toContain(
      'claude-code:acme cost=4 lanes=analyze/build/chore weekly used 30% elapsed 65.6% surplus=35.6',
    );
    // … the second is served from the cache.
    const second = await bullswarm(['pools'], { home, env });
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe(
      [
        'claude-code      cost=4 lanes=analyze/build/chore weekly used 31% elapsed 26.3% [cache] surplus=-4.7 inflight=0 5h=27% (54% elapsed) ready',
        'claude-code:acme cost=4 lanes=analyze/build/chore weekly used 30% elapsed 65.6% [cache] surplus=35.6 inflight=0 5h=15% (44% elapsed) ready',
        'codex            cost=3 lanes=analyze/build/chore unmetered surplus=- inflight=0 disabled',
        'grok             cost=2 lanes=analyze/build/chore weekly used 74% elapsed 72.5% [cache] surplus=-1.5 inflight=0 ready',
        '',
      ].join('\n'),
    );
    const dry = await bullswarm(['run', '--lane', 'analyze', '--dry-run', 'Explain the parser'], {
      home,
      env,
    });
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toBe(
      'OK [grok] most-behind capable pool (surplus -1.5)\n' +
        'forecast: inflight=0 5h ?%->?% expected=5.67m rate=unmeasured basis=bootstrap\n',
    );
  });

  it('--json carries the same numbers per pool, with the durable id and poolLabel', async () => {
    const home = workedExampleHome();
    await bullswarm(['pools', 'label', 'claude-code:acme', 'acme'], { home });
    const result = await bullswarm(['pools', '--json'], { home, env: nowEnv(NOW) });
    expect(result.exitCode).toBe(0);
    const json = JSON.parse(result.stdout) as { now: string; pools: Record<string, unknown>[] };
    expect(json.now).toBe('2026-09-10T12:00:00.000Z');
    expect(json.pools.map((p) => p.id)).toEqual(['claude-code', 'claude-code:acme', 'codex', 'grok']);
    const acme = json.pools[1]!;
    expect(acme).toMatchObject({
      id: 'claude-code:acme',
      poolLabel: 'acme',
      connector: 'claude-code',
      account: 'acme',
      enabled: true,
      cost: 4,
      lanes: ['analyze', 'build', 'chore'],
      models: { low: { model: 'haiku', free: false }, medium: null, high: { model: 'opus', free: false } },
      meter: { status: 'live', readAt: '2026-09-10T12:00:00Z' },
      meterError: null,
      meterHoldUntil: null,
      pacingWindow: 'weekly',
      usedPct: 30,
      inflight: 0,
      spendRates: {},
      expiringSoon: false,
      urgency: null,
      state: 'ready',
      states: ['ready'],
      // The candidate-row numbers, as run --json prints them.
      estimateSource: 'bootstrap',
      nearFiveHourPenalty: false,
      forecastOverLimit: false,
      forecastGated: false,
      draining: false,
    });
    expect(acme.effectiveSurplus).toBeCloseTo(35.6, 6);
    expect(acme.forecastFiveHourPct).toBeGreaterThanOrEqual(15);
    expect(acme.pace).toBeCloseTo(35.6, 6);
    expect(acme.elapsedPct).toBeCloseTo(65.6, 6);
    expect(acme.fiveHour).toMatchObject({ usedPct: 15, projectedPct: 15 });
    expect((acme.fiveHour as { elapsedPct: number }).elapsedPct).toBeCloseTo(44, 6);
    expect((acme.meter as { windows: unknown[] }).windows).toHaveLength(2);
    const codex = json.pools[2]!;
    expect(codex).toMatchObject({
      id: 'codex',
      poolLabel: 'codex',
      enabled: false,
      meter: { status: 'unmetered', windows: [], readAt: null },
      pace: null,
      fiveHour: null,
      state: 'disabled',
    });
  });

  it('marks a reading held after a failed poll as stale, with the error and when it retries', async () => {
    const home = dirs.make();
    writeTestHome(home, {
      now: NOW,
      pools: [
        {
          connector: 'grok',
          meter: { type: 'file' },
          windows: [{ kind: 'weekly', usedPct: 40, resetsInMin: 5040 }],
        },
      ],
    });
    expect((await bullswarm(['pools'], { home, env: nowEnv(NOW) })).exitCode).toBe(0);
    rmSync(join(home, 'meters', 'grok.json'));
    // Past the 120 s cache TTL the source is polled again and fails; the last good reading is held.
    const later = NOW + 10 * 60_000;
    const result = await bullswarm(['pools'], { home, env: nowEnv(later) });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('weekly used 40% elapsed');
    expect(result.stdout).toContain('[stale · no meter file, retry in 30s]');
    const json = JSON.parse((await bullswarm(['pools', '--json'], { home, env: nowEnv(later) })).stdout);
    expect(json.pools[0]).toMatchObject({
      meter: { status: 'stale' },
      meterError: 'no meter file',
      meterHoldUntil: '2026-09-10T12:10:30Z',
    });
  });

  it('shows why a file meter could not be read: the detail in --json and --debug, the short status on the line', async () => {
    const home = dirs.make();
    const pool: TestPool = {
      connector: 'sim',
      account: 'a',
      windows: [{ kind: 'weekly', usedPct: 40, resetsInMin: 5040 }],
    };
    writeTestHome(home, { now: NOW, pools: [pool] });
    expect((await bullswarm(['pools'], { home, env: nowEnv(NOW) })).exitCode).toBe(0);
    // An exporter that writes epoch seconds where the format wants milliseconds.
    const meterFile = meterFileOf(home, pool)!;
    const resetsAtSeconds = Math.floor((NOW + 5040 * 60_000) / 1000);
    writeFileSync(
      meterFile,
      JSON.stringify({ windows: [{ kind: 'weekly', usedPct: 41, resetsAt: resetsAtSeconds }] }),
    );
    const later = NOW + 10 * 60_000;
    const env = nowEnv(later);
    // Plain pools polls, fails, and keeps the spec's line: the short status only.
    const plain = await bullswarm(['pools'], { home, env });
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toMatch(
      /^sim:a cost=\d lanes=\S+ weekly used 40% elapsed \S+% \[stale · bad meter reading, retry in 30s\] surplus=/,
    );
    expect(plain.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(plain.stdout).not.toContain('windows[0]');
    // Inside the hold the next processes read the detail from the meter cache row.
    const json = JSON.parse((await bullswarm(['pools', '--json'], { home, env })).stdout);
    expect(json.pools[0]).toMatchObject({ meter: { status: 'stale' }, meterError: 'bad meter reading' });
    const detail: string = json.pools[0].meterErrorDetail;
    expect(detail).toContain(meterFile);
    expect(detail).toContain(
      'is not a valid bullswarm meter reading: windows[0].resetsAt: expected epoch milliseconds',
    );
    const debug = await bullswarm(['pools', '--debug'], { home, env });
    expect(debug.exitCode).toBe(0);
    const [line, detailLine, ...rest] = debug.stdout.trimEnd().split('\n');
    expect(line).toBe(plain.stdout.trimEnd());
    expect(detailLine).toBe(`  meter error: ${detail}`);
    expect(rest).toEqual([]);
    // A pool whose meter reads fine gets no detail, in JSON or under --debug.
    writeFileSync(meterFile, JSON.stringify({ windows: [{ kind: 'weekly', usedPct: 41 }] }));
    const fixed = NOW + 20 * 60_000;
    const recovered = await bullswarm(['pools', '--debug'], { home, env: nowEnv(fixed) });
    expect(recovered.stdout).not.toContain('meter error');
    const recoveredJson = JSON.parse(
      (await bullswarm(['pools', '--json'], { home, env: nowEnv(fixed) })).stdout,
    );
    expect(recoveredJson.pools[0]).toMatchObject({ meterError: null, meterErrorDetail: null });
  });

  it('names the free model per tier when free-ness differs per tier, and once when it does not', async () => {
    const home = dirs.make();
    writeTestHome(home, {
      now: NOW,
      pools: [
        { connector: 'opencode', meter: { type: 'none' } },
        { connector: 'echo' },
        { connector: 'sim', account: 'a', windows: [{ kind: 'weekly', usedPct: 10, resetsInMin: 5040 }] },
        { connector: 'sim', account: 'paid', models: { low: 'sim/lite' } },
      ],
    });
    const result = await bullswarm(['pools'], { home, env: nowEnv(NOW) });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.find((l) => l.startsWith('echo '))).toMatch(/ free=echo ready$/);
    expect(lines.find((l) => l.startsWith('opencode '))).toContain(
      ' free=low:opencode/mimo-v2.6-flash-free,medium:opencode/muse-spark-1.3-contributor-free ready',
    );
    expect(lines.find((l) => l.startsWith('sim:a '))).toContain(' free=low:sim/lite:free ready');
    expect(lines.find((l) => l.startsWith('sim:paid '))).not.toContain('free=');
    const json = JSON.parse((await bullswarm(['pools', '--json'], { home, env: nowEnv(NOW) })).stdout);
    const opencode = json.pools.find((p: { id: string }) => p.id === 'opencode');
    expect(opencode.models.high).toEqual({ model: 'opencode/claude-sonnet-4-5', free: false });
    expect(opencode.models.low).toEqual({ model: 'opencode/mimo-v2.6-flash-free', free: true });
  });

  it('shows near-limit, burst-gated and expiring-soon states with their numbers', async () => {
    const home = dirs.make();
    writeTestHome(home, {
      now: NOW,
      pools: [
        {
          connector: 'sim',
          account: 'near',
          windows: [
            { kind: 'five_hour', usedPct: 80, resetsInMin: 150 },
            { kind: 'weekly', usedPct: 20, resetsInMin: 5040 },
          ],
        },
        {
          connector: 'sim',
          account: 'gated',
          windows: [
            { kind: 'five_hour', usedPct: 100, resetsInMin: 30 },
            { kind: 'weekly', usedPct: 20, resetsInMin: 5040 },
          ],
        },
        {
          connector: 'sim',
          account: 'month',
          subscription: { quotaWindow: 'monthly' },
          windows: [{ kind: 'monthly', usedPct: 60, resetsInMin: 2 * 1440 }],
        },
        // A pool whose connector is not installed (a home connector that was removed).
        { connector: 'gone', account: 'x', meter: { type: 'none' } },
        {
          connector: 'sim',
          account: 'both',
          windows: [
            { kind: 'five_hour', usedPct: 90, resetsInMin: 60 },
            { kind: 'weekly', usedPct: 50, resetsInMin: 600 },
          ],
        },
        // Expiring soon but draining: its forecast is past 95% and ahead of its clock.
        {
          connector: 'sim',
          account: 'drain',
          windows: [{ kind: 'weekly', usedPct: 99.5, resetsInMin: 600 }],
        },
      ],
    });
    const result = await bullswarm(['pools'], { home, env: nowEnv(NOW) });
    expect(result.exitCode).toBe(0);
    const line = (label: string) => result.stdout.split('\n').find((l) => l.startsWith(`${label} `))!;
    expect(line('sim:near')).toMatch(/ 5h=80% \(50% elapsed\) free=low:sim\/lite:free NEAR-5H-LIMIT$/);
    expect(line('sim:gated')).toMatch(
      / 5h=100% \(90% elapsed\) .*BURST-GATED 5-hour until 2026-09-10T12:30:00Z$/,
    );
    // 2 days left of a 30-day month: 93.3% elapsed − 60% used = 33.3; urgency 33.3 / (2/30) = 500.
    expect(line('sim:month')).toMatch(
      /monthly used 60% elapsed 93.3% surplus=33.3 .* resets in 2d 0h EXPIRING-SOON urgency=500$/,
    );
    expect(line('sim:both')).toMatch(/ NEAR-5H-LIMIT resets in 10h 0m EXPIRING-SOON urgency=/);
    expect(line('sim:drain')).toMatch(
      / surplus=-5\.5 inflight=0 .*resets in 10h 0m DRAINING weekly used 99\.5%$/,
    );
    expect(line('gone:x')).toMatch(
      /^gone:x +cost=- lanes=analyze\/build\/chore unmetered surplus=- inflight=0 UNAVAILABLE \(connector gone is not installed\)$/,
    );
    // Labels are padded to the widest one.
    expect(line('sim:near')).toMatch(/^sim:near {2}cost=1/);
    const json = JSON.parse((await bullswarm(['pools', '--json'], { home, env: nowEnv(NOW) })).stdout);
    const gated = json.pools.find((p: { id: string }) => p.id === 'sim:gated');
    expect(gated).toMatchObject({
      state: 'burst-gated',
      spentWindows: [{ window: 'five_hour', until: '2026-09-10T12:30:00Z' }],
    });
    const both = json.pools.find((p: { id: string }) => p.id === 'sim:both');
    expect(both.states).toEqual(['near-5h-limit', 'expiring-soon']);
    expect(both.expiringSoon).toBe(true);
    const drain = json.pools.find((p: { id: string }) => p.id === 'sim:drain');
    expect(drain).toMatchObject({ state: 'draining', states: ['draining'], draining: true });
  });

  it('projects the 5-hour reading with in-flight work at the measured rate (5h=<reading>%-><projected>%)', async () => {
    const home = dirs.make();
    const min = 60_000;
    const fiveResets = NOW + 200 * min;
    writeTestHome(home, { now: NOW, pools: [{ connector: 'sim', account: 'a' }] });
    // The sim's meter file, last written 30 minutes ago.
    writeFileSync(
      join(home, 'sim', 'a', 'meter.json'),
      JSON.stringify({
        readAt: new Date(NOW - 30 * min).toISOString(),
        windows: [
          { kind: 'five_hour', usedPct: 20, resetsAt: new Date(fiveResets).toISOString() },
          { kind: 'weekly', usedPct: 20, resetsAt: new Date(NOW + 5040 * min).toISOString() },
        ],
      }),
    );
    const store = openStore({ dbPath: join(home, 'bullswarm.db') });
    try {
      // Retained readings: 10% → 20% of the 5-hour window while one worker ran 10 minutes: 1 point/min.
      store.meters.appendReadings(
        [
          { readAt: NOW - 60 * min, usedPct: 10 },
          { readAt: NOW - 30 * min, usedPct: 20 },
        ].map((r) => ({
          ...r,
          poolId: 'sim:a',
          window: 'five_hour' as const,
          resetsAt: fiveResets,
          windowMinutes: 300,
          source: 'file',
        })),
      );
      store.runs.append({
        id: 'r1',
        poolId: 'sim:a',
        tier: 'medium',
        lane: 'analyze',
        action: 'run',
        startedAt: NOW - 60 * min,
        endedAt: NOW - 50 * min,
        stalled: false,
        outcome: 'ok',
        workerMinutes: 10,
      });
      // Work in flight for 2 of its expected 10 minutes: 8 more points expected.
      store.ledger.record({
        poolId: 'sim:a',
        action: 'other',
        startedAt: NOW - 2 * min,
        expectedMinutes: 10,
        pid: process.pid,
      });
    } finally {
      store.close();
    }
    const result = await bullswarm(['pools'], { home, env: nowEnv(NOW) });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^sim:a cost=1 .* inflight=1 5h=20%->28% \(33\.3% elapsed\) /m);
    const json = JSON.parse((await bullswarm(['pools', '--json'], { home, env: nowEnv(NOW) })).stdout);
    expect(json.pools[0]).toMatchObject({ inflight: 1, inflightCharge: 3, spendRates: { five_hour: 1 } });
    expect(json.pools[0].fiveHour.projectedPct).toBeCloseTo(28, 9);
  });

  it('says how to add pools when there are none, and creates nothing', async () => {
    const home = join(dirs.make(), 'fresh');
    const result = await bullswarm(['pools'], { home });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('no pools yet');
    expect(existsSync(home)).toBe(false);
  });
});

describe('bullswarm pools add/remove/enable/disable', () => {
  it('adds a pool checked against the connector, and refuses an unknown connector or model', async () => {
    const home = dirs.make();
    const add = await bullswarm(
      [
        'pools',
        'add',
        'codex:work',
        '--label',
        'work',
        '--model',
        'high=gpt-6.2-astra',
        '--model',
        'low=none',
        '--env',
        'CODEX_HOME=/tmp/x',
      ],
      { home },
    );
    expect(add.exitCode).toBe(0);
    expect(add.stdout).toContain('added pool codex:work (label work)');
    const state = JSON.parse(readFileSync(join(home, 'state.json'), 'utf8'));
    expect(state.pools[0]).toMatchObject({
      id: 'codex:work',
      connector: 'codex',
      account: 'work',
      enabled: true,
      models: { high: 'gpt-6.2-astra', low: null },
      env: { CODEX_HOME: '/tmp/x' },
    });
    expect(JSON.parse(readFileSync(join(home, 'pool-labels.json'), 'utf8')).labels).toEqual({
      'codex:work': 'work',
    });

    const unknown = await bullswarm(['pools', 'add', 'nosuch'], { home });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/unknown connector "nosuch".*known connectors are .*claude-code.*codex/);

    const badModel = await bullswarm(['pools', 'add', 'claude-code', '--model', 'high=gpt-4'], { home });
    expect(badModel.exitCode).toBe(2);
    expect(badModel.stderr).toContain(
      'model "gpt-4" is not allowed for tier high on claude-code: allowed models are opus, claude-opus-4-5, sonnet',
    );

    const twice = await bullswarm(['pools', 'add', 'codex:work'], { home });
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain('pool codex:work already exists');

    const disabled = await bullswarm(['pools', 'disable', 'work'], { home });
    expect(disabled.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(home, 'state.json'), 'utf8')).pools[0].enabled).toBe(false);
    expect((await bullswarm(['pools'], { home })).stdout).toMatch(/^work +cost=3 .* disabled$/m);
    expect((await bullswarm(['pools', 'enable', 'codex:work'], { home })).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(home, 'state.json'), 'utf8')).pools[0].enabled).toBe(true);

    const removed = await bullswarm(['pools', 'remove', 'work'], { home });
    expect(removed.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(home, 'state.json'), 'utf8')).pools).toEqual([]);
    expect(JSON.parse(readFileSync(join(home, 'pool-labels.json'), 'utf8')).labels).toEqual({});
  });
});

describe('bullswarm pools label', () => {
  function twoPools(): string {
    const home = dirs.make();
    writeTestHome(home, {
      now: NOW,
      pools: [
        { connector: 'sim', account: 'a', windows: [{ kind: 'weekly', usedPct: 10, resetsInMin: 5040 }] },
        { connector: 'sim', account: 'b', windows: [{ kind: 'weekly', usedPct: 30, resetsInMin: 5040 }] },
      ],
    });
    return home;
  }

  it('shows labels everywhere people look and accepts them in place of ids', async () => {
    const home = twoPools();
    const env = nowEnv(NOW);
    const set = await bullswarm(['pools', 'label', 'sim:a', 'alpha'], { home });
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toBe('sim:a now shows as alpha\n');
    const pools = await bullswarm(['pools'], { home, env });
    expect(pools.stdout).toMatch(/^alpha cost=1 /m);
    expect(pools.stdout).toMatch(/^sim:b cost=1 /m);
    const dry = await bullswarm(['run', '--lane', 'analyze', '--dry-run', '--worker-pool', 'alpha', 'x'], {
      home,
      env,
    });
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toMatch(/^OK \[alpha\] pinned to alpha \(--worker-pool\)/);
    const list = await bullswarm(['pools', 'label', '--list', '--json'], { home });
    expect(JSON.parse(list.stdout)).toEqual({
      labels: [{ poolId: 'sim:a', label: 'alpha', configured: true, equalsPoolId: null }],
    });
    expect((await bullswarm(['pools', 'label', '--list'], { home })).stdout).toBe('sim:a alpha\n');
    // A label can be moved by naming the pool by its label.
    expect((await bullswarm(['pools', 'label', 'alpha', 'first'], { home })).exitCode).toBe(0);
    const cleared = await bullswarm(['pools', 'label', 'first', '--clear'], { home });
    expect(cleared.exitCode).toBe(0);
    expect((await bullswarm(['pools'], { home, env })).stdout).toMatch(/^sim:a cost=1 /m);
  });

  it.each([
    [
      'has a space',
      ['sim:a', 'my pool'],
      'label "my pool" for pool sim:a: a label cannot contain spaces or control characters',
    ],
    [
      "is another pool's id",
      ['sim:a', 'sim:b'],
      `label "sim:b" for pool sim:a: a label cannot equal another pool's id (sim:b)`,
    ],
  ])('refuses a label that %s (exit 2, why)', async (_what, args, message) => {
    const home = twoPools();
    const before = existsSync(join(home, 'pool-labels.json'));
    const result = await bullswarm(['pools', 'label', ...args], { home });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`error: ${message}\n`);
    expect(existsSync(join(home, 'pool-labels.json'))).toBe(before);
  });

  it('refuses a label for an unknown pool, listing the known ones', async () => {
    const home = twoPools();
    const result = await bullswarm(['pools', 'label', 'sim:zzz', 'z'], { home });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('error: unknown pool "sim:zzz": known pools: sim:a, sim:b\n');
  });
});

describe('a connector that does not load', () => {
  it('is named on stderr with its file and field; the other connectors and pools still work', async () => {
    const home = workedExampleHome();
    const manifestDir = join(home, 'providers', 'broken');
    mkdirSync(manifestDir, { recursive: true });
    writeFileSync(
      join(manifestDir, 'connector.json'),
      JSON.stringify({
        specificationVersion: 'connector-v1',
        id: 'broken',
        displayName: 'Broken',
        modelProfiles: { high: [{ model: 5 }] },
      }),
    );
    const result = await bullswarm(['pools', '--json'], { home, env: nowEnv(NOW) });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('warning: connector not loaded:');
    expect(result.stderr).toContain(join(manifestDir, 'connector.json'));
    expect(result.stderr).toContain('modelProfiles.high[0].model');
    // stdout stays one JSON document with every pool.
    const parsed = JSON.parse(result.stdout) as { pools: { id: string }[] };
    expect(parsed.pools.map((pool) => pool.id).sort()).toEqual([
      'claude-code',
      'claude-code:acme',
      'codex',
      'grok',
    ]);
  });
});

describe('a label is never another pool id', () => {
  it('pools add refuses an id that is a label, and a --label that is an id, naming the argument', async () => {
    const home = dirs.make();
    writeTestHome(home, { now: NOW, pools: [] });
    expect((await bullswarm(['pools', 'add', 'sim:q', '--label', 'sim:a9'], { home })).exitCode).toBe(0);
    const state = readFileSync(join(home, 'state.json'), 'utf8');
    const taken = await bullswarm(['pools', 'add', 'sim:a9'], { home });
    expect(taken.exitCode).toBe(2);
    expect(taken.stderr).toBe(
      'error: <connector>[:<account>] "sim:a9" is the label of pool sim:q, and a label is never another pool\'s id: add the pool under another account name, or first relabel that pool (bullswarm pools label sim:q <new-label>, or --clear)\n',
    );
    const asLabel = await bullswarm(['pools', 'add', 'sim:r', '--label', 'sim:q'], { home });
    expect(asLabel.exitCode).toBe(2);
    expect(asLabel.stderr).toBe(
      'error: --label label "sim:q" for pool sim:r: a label cannot equal another pool\'s id (sim:q)\n',
    );
    expect(readFileSync(join(home, 'state.json'), 'utf8')).toBe(state);
    const list = await bullswarm(['pools', '--json'], { home });
    expect((JSON.parse(list.stdout) as { pools: { id: string }[] }).pools.map((p) => p.id)).toEqual([
      'sim:q',
    ]);
  });

  it('a hand-written label equal to another pool id is ignored with one warning; commands work; --clear or a new label repairs it', async () => {
    const home = dirs.make();
    writeTestHome(home, {
      now: NOW,
      pools: [
        { connector: 'sim', account: 'ahead', meter: { type: 'none' } },
        { connector: 'sim', account: 'behind', meter: { type: 'none' } },
      ],
    });
    const labelsPath = join(home, 'pool-labels.json');
    const text = `${JSON.stringify({ version: 1, labels: { 'sim:behind': 'sim:ahead', 'sim:ahead': 'front' } }, null, 2)}\n`;
    writeFileSync(labelsPath, text);
    const warning = `warning: ${labelsPath}: labels.sim:behind: label "sim:ahead" equals the id of pool sim:ahead, so it is ignored (sim:behind shows as its id; a label is never another pool's id): run \`bullswarm pools label sim:behind --clear\` or \`bullswarm pools label sim:behind <other-label>\`\n`;
    const env = nowEnv(NOW);

    const pools = await bullswarm(['pools', '--json'], { home, env });
    expect([pools.exitCode, pools.stderr]).toEqual([0, warning]);
    const views = (JSON.parse(pools.stdout) as { pools: { id: string; poolLabel: string }[] }).pools;
    expect(views.map((view) => [view.id, view.poolLabel])).toEqual([
      ['sim:ahead', 'front'],
      ['sim:behind', 'sim:behind'],
    ]);
    // the id wins: sim:ahead names the pool with that id
    const meters = await bullswarm(
      ['meters', 'set', 'sim:ahead', '--weekly', '10', '--resets-at', 'weekly=2026-09-14T00:00:00Z'],
      { home, env },
    );
    expect([meters.exitCode, meters.stderr]).toEqual([0, warning]);
    const dry = await bullswarm(
      ['run', '--lane', 'analyze', '--worker-pool', 'sim:ahead', '--dry-run', '--json', 'hi'],
      { home, env },
    );
    expect([dry.exitCode, dry.stderr]).toEqual([0, warning]);
    expect(JSON.parse(dry.stdout)).toMatchObject({ poolId: 'sim:ahead', poolLabel: 'front' });
    const list = await bullswarm(['pools', 'label', '--list'], { home, env });
    expect([list.exitCode, list.stdout, list.stderr]).toEqual([
      0,
      'sim:ahead  front\nsim:behind sim:ahead (ignored: equals the id of pool sim:ahead)\n',
      warning,
    ]);
    // an unrelated relabel works (and still warns), reading never rewrote the file
    expect(readFileSync(labelsPath, 'utf8')).toBe(text);
    const relabel = await bullswarm(['pools', 'label', 'sim:ahead', 'lead'], { home, env });
    expect([relabel.exitCode, relabel.stderr]).toEqual([0, warning]);

    // repair by --clear: no warning afterwards
    const clear = await bullswarm(['pools', 'label', 'sim:behind', '--clear'], { home, env });
    expect([clear.exitCode, clear.stdout, clear.stderr]).toEqual([
      0,
      'cleared the label of sim:behind\n',
      '',
    ]);
    expect(JSON.parse(readFileSync(labelsPath, 'utf8')).labels).toEqual({ 'sim:ahead': 'lead' });
    expect((await bullswarm(['pools'], { home, env })).stderr).toBe('');

    // repair by a new label
    writeFileSync(labelsPath, text);
    const renamed = await bullswarm(['pools', 'label', 'sim:behind', 'back'], { home, env });
    expect([renamed.exitCode, renamed.stderr]).toEqual([0, '']);
    expect(JSON.parse(readFileSync(labelsPath, 'utf8')).labels).toEqual({
      'sim:behind': 'back',
      'sim:ahead': 'front',
    });
    const after = await bullswarm(['pools', '--json'], { home, env });
    expect([after.exitCode, after.stderr]).toEqual([0, '']);
  });

  it('a label of a pool no longer in state.json never counts: no warning, commands work', async () => {
    const home = dirs.make();
    writeTestHome(home, { now: NOW, pools: [{ connector: 'sim', account: 'a', meter: { type: 'none' } }] });
    const labelsPath = join(home, 'pool-labels.json');
    writeFileSync(labelsPath, JSON.stringify({ version: 1, labels: { 'sim:gone': 'sim:a' } }));
    const env = nowEnv(NOW);
    const pools = await bullswarm(['pools', '--json'], { home, env });
    expect([pools.exitCode, pools.stderr]).toEqual([0, '']);
    const label = await bullswarm(['pools', 'label', 'sim:a', 'alpha'], { home, env });
    expect([label.exitCode, label.stderr]).toEqual([0, '']);
    expect((await bullswarm(['pools', 'label', 'sim:gone', '--clear'], { home, env })).exitCode).toBe(0);
  });
});

describe('a home connector replacing a built-in one', () => {
  it('is named once on stderr; --json stdout stays clean', async () => {
    const home = workedExampleHome();
    const builtin = fileURLToPath(new URL('../../../providers/grok/connector.json', import.meta.url));
    mkdirSync(join(home, 'providers', 'grok'), { recursive: true });
    writeFileSync(join(home, 'providers', 'grok', 'connector.json'), readFileSync(builtin, 'utf8'));
    const result = await bullswarm(['pools', '--json'], { home, env: nowEnv(NOW) });
    expect(result.exitCode).toBe(0);
    const lines = result.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^warning: home connector "grok" \(.*providers\/grok\/connector\.json\) replaces the builtin one/,
    );
    expect(JSON.parse(result.stdout).pools.length).toBe(4);
  });
});
