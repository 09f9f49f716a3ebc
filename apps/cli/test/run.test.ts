import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '@bullswarm/store';
import { nowEnv, type TestPool, writeTestHome } from '@bullswarm/test-support';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, bullswarm, CLI_PATH, tempDirs } from './support/cli';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** Half a week gone: `usedPct` 10 → surplus 40, 30 → 20. */
const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];

interface SimLogLine {
  readonly pid: number;
  readonly pool: string;
  readonly scenario: string;
  readonly childPid?: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** A home of sim pools `a` (surplus 40, running `scenario`) and `b` (surplus 20, answering). */
function runHome(scenario: unknown, extra: TestPool[] = []) {
  const home = dirs.make();
  writeTestHome(home, {
    now: NOW,
    pools: [
      { connector: 'sim', account: 'a', windows: weekly(10), scenario: { default: scenario } },
      { connector: 'sim', account: 'b', windows: weekly(30) },
      ...extra,
    ],
  });
  const simLog = join(home, 'sim.log');
  const work = join(home, 'work');
  mkdirSync(work);
  return {
    home,
    work,
    env: { ...nowEnv(NOW), BULLSWARM_SIM_LOG: simLog },
    simLog: (): SimLogLine[] =>
      existsSync(simLog)
        ? readFileSync(simLog, 'utf8')
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as SimLogLine)
        : [],
    runDirs: (): string[] => (existsSync(join(home, 'runs')) ? readdirSync(join(home, 'runs')) : []),
  };
}

function runs(home: string) {
  const store = openStore({ dbPath: join(home, 'bullswarm.db') });
  try {
    return store.runs.list();
  } finally {
    store.close();
  }
}

describe('bullswarm run (the sim as the agent)', () => {
  it('ok: the route line on stderr, the answer on stdout, the attempt file under runs/<runId>/', async () => {
    const f = runHome('ok');
    const result = await bullswarm(['run', '--lane', 'analyze', 'Explain the parser'], {
      home: f.home,
      env: f.env,
      cwd: f.work,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('sim: done: Explain the parser\n');
    const [runId] = f.runDirs();
    expect(runId).toMatch(/^run-20261130-120000-[0-9a-f]{6}$/);
    const runDir = join(f.home, 'runs', runId!);
    expect(result.stderr).toBe(`→ [sim:a] most-behind capable pool (surplus 40)\nattempt files: ${runDir}\n`);
    expect(readFileSync(join(runDir, 'out-run-attempt-1'), 'utf8')).toContain(
      'sim: done: Explain the parser',
    );
    expect(f.simLog()).toMatchObject([{ pool: 'sim:a', scenario: 'ok', exitCode: 0 }]);
    expect(runs(f.home)).toMatchObject([{ poolId: 'sim:a', tier: 'medium', outcome: 'ok', action: 'run' }]);
    // Nothing is left in flight.
    expect((await bullswarm(['assignments'], { home: f.home })).stdout).toBe('nothing in flight\n');
  });

  it('ok with --json: one object with the attempts, the run dir and the candidate rows', async () => {
    const f = runHome('ok');
    const result = await bullswarm(['run', '--lane', 'analyze', '--json', 'Explain the parser'], {
      home: f.home,
      env: f.env,
      cwd: f.work,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({
      ok: true,
      kind: 'ok',
      poolId: 'sim:a',
      poolLabel: 'sim:a',
      model: 'sim/standard',
      reason: 'most-behind capable pool (surplus 40)',
      why: null,
      backAt: null,
      answer: 'sim: done: Explain the parser',
      runDir: join(f.home, 'runs', f.runDirs()[0]!),
    });
    expect(json.attempts).toMatchObject([
      {
        attempt: 1,
        poolId: 'sim:a',
        kind: 'ok',
        exitCode: 0,
        willRetry: false,
        startedAt: '2026-11-30T12:00:00Z',
      },
    ]);
    expect(json.candidates.map((c: { poolId: string; poolLabel: string }) => c.poolLabel)).toEqual([
      'sim:a',
      'sim:b',
    ]);
    expect(json.candidates[0]).toMatchObject({
      inflight: 0,
      forecastGated: false,
      estimateSource: 'bootstrap',
    });
  });

  it('usage limit: exit 1 with the reason and back at, the attempt file kept, and the next pools shows the pool gated', async () => {
    const f = runHome({ scenario: 'usage-limit', resetsInMin: 60 });
    const result = await bullswarm(['run', '--lane', 'analyze', 'Explain the parser'], {
      home: f.home,
      env: f.env,
      cwd: f.work,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('→ [sim:a] most-behind capable pool (surplus 40)');
    expect(lines[1]).toMatch(/^FAILED \[sim:a\] quota: usage limit: /);
    expect(lines[2]).toBe('back at 2026-11-30T13:00:00Z');
    const runDir = join(f.home, 'runs', f.runDirs()[0]!);
    expect(lines[3]).toBe(`attempt files: ${runDir}`);
    expect(existsSync(join(runDir, 'out-run-attempt-1'))).toBe(true);
    expect(f.simLog()).toHaveLength(1); // no retry, no move

    const pools = await bullswarm(['pools'], { home: f.home, env: f.env });
    expect(pools.stdout).toMatch(/^sim:a .* 5h=100% .*BURST-GATED 5-hour until 2026-11-30T13:00:00Z$/m);
    const dry = await bullswarm(['run', '--lane', 'analyze', '--dry-run', 'x'], { home: f.home, env: f.env });
    expect(dry.stdout.split('\n')[0]).toBe(
      'OK [sim:b] most-behind capable pool (surplus 20) (burst-gated: sim:a)',
    );
  });

  it('throttle: exit 1, recorded, not retried', async () => {
    const f = runHome('throttle');
    const result = await bullswarm(['run', '--lane', 'analyze', 'Explain the parser'], {
      home: f.home,
      env: f.env,
      cwd: f.work,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /^FAILED \[sim:a\] throttle: rate limited: .* · recorded; a single run does not retry a throttle$/m,
    );
    expect(f.simLog().map((line) => line.pool)).toEqual(['sim:a']);
    expect(runs(f.home)).toMatchObject([{ poolId: 'sim:a', outcome: 'throttle', failureKind: 'throttle' }]);
  });

  it('sign-in failure: the retry goes outside the credential group', async () => {
    // sim-twin is the sim under another id sharing its credential (credentialGroup "sim"): its
    // account a is sim:a's credential, its sim home and meter too (tied at surplus 40; the
    // smaller id goes first). Whichever fails, the retry must skip the other.
    const f = runHome('auth', [{ connector: 'sim-twin', account: 'a' }]);
    const manifest = JSON.parse(
      readFileSync(new URL('../../../providers/sim/connector.json', import.meta.url), 'utf8'),
    ) as Record<string, unknown>;
    const { $schema: _schema, ...rest } = manifest;
    mkdirSync(join(f.home, 'providers', 'sim-twin'), { recursive: true });
    writeFileSync(
      join(f.home, 'providers', 'sim-twin', 'connector.json'),
      JSON.stringify({ ...rest, id: 'sim-twin', credentialGroup: 'sim' }),
    );
    const result = await bullswarm(['run', '--lane', 'analyze', '--json', 'Explain the parser'], {
      home: f.home,
      env: f.env,
      cwd: f.work,
    });
    expect(result.exitCode).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.attempts.map((a: { poolId: string; kind: string }) => [a.poolId, a.kind])).toEqual([
      ['sim-twin:a', 'auth'],
      ['sim:b', 'ok'],
    ]);
    expect(json.reason).toMatch(
      /^fallback from sim-twin:a after sign-in failure · most-behind capable pool \(surplus 20\)/,
    );
    expect(json.reason).toContain('sim:a sign-in failed in credential group sim:a');
    expect(f.simLog().map((line) => line.pool)).toEqual(['sim-twin:a', 'sim:b']);
  });

  it('crash: the retry lands on another pool, its route line prefixed with where it came from', async () => {
    const f = runHome('crash');
    const result = await bullswarm(['run', '--lane', 'analyze', 'Explain the parser'], {
      home: f.home,
      env: f.env,
      cwd: f.work,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('sim: done: Explain the parser\n');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('→ [sim:a] most-behind capable pool (surplus 40)');
    expect(lines[1]).toBe(
      '→ [sim:b] fallback from sim:a after crash (exit 1) · most-behind capable pool (surplus 20)',
    );
    const runDir = join(f.home, 'runs', f.runDirs()[0]!);
    expect(readFileSync(join(runDir, 'out-run-attempt-1.stderr'), 'utf8')).toContain('crashed on purpose');
    expect(readFileSync(join(runDir, 'out-run-attempt-2'), 'utf8')).toContain('sim: done');
  });

  it('no free pool: exit 1, no pool with quota to spare, and when one is back', async () => {
    const home = dirs.make();
    writeTestHome(home, {
      now: NOW,
      pools: [
        {
          connector: 'sim',
          account: 'a',
          windows: [
            { kind: 'five_hour', usedPct: 100, resetsInMin: 45 },
            { kind: 'weekly', usedPct: 10, resetsInMin: 5040 },
          ],
        },
        { connector: 'sim', account: 'b', windows: [{ kind: 'weekly', usedPct: 100, resetsInMin: 300 }] },
      ],
    });
    const simLog = join(home, 'sim.log');
    const result = await bullswarm(['run', '--lane', 'analyze', 'x'], {
      home,
      env: { ...nowEnv(NOW), BULLSWARM_SIM_LOG: simLog },
      cwd: home,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      'FAILED [no pool] quota: no pool with quota to spare: sim:a at its 5-hour limit until 2026-11-30T12:45:00Z; ' +
        'sim:b at its weekly limit until 2026-11-30T17:00:00Z\n' +
        'back at 2026-11-30T12:45:00Z\n',
    );
    expect(existsSync(simLog)).toBe(false);
    const json = JSON.parse(
      (await bullswarm(['run', '--lane', 'analyze', '--json', 'x'], { home, env: nowEnv(NOW), cwd: home }))
        .stdout,
    );
    expect(json).toMatchObject({
      ok: false,
      kind: 'quota',
      poolId: null,
      backAt: '2026-11-30T12:45:00Z',
      attempts: [],
    });
  });

  it('a bad --cwd or --add-dir is a usage error naming the flag, before anything runs', async () => {
    const f = runHome('ok');
    const result = await bullswarm(['run', '--lane', 'analyze', '--cwd', join(f.home, 'missing'), 'x'], {
      home: f.home,
      env: f.env,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`error: --cwd ${join(f.home, 'missing')}: no such directory\n`);
    const addDir = await bullswarm(['run', '--lane', 'analyze', '--add-dir', 'nope', 'x'], {
      home: f.home,
      env: f.env,
      cwd: f.work,
    });
    expect(addDir.exitCode).toBe(2);
    expect(addDir.stderr).toContain(`--add-dir ${join(f.work, 'nope')}: no such directory`);
    expect(f.simLog()).toEqual([]);
  });

  const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!hasScript)(
    'on a terminal shows attempt started/finished progress lines, in colour',
    async () => {
      const f = runHome('crash');
      // `script` gives the command a pseudo-terminal (stdout and stderr both go to it).
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI_PATH)} run --lane analyze "Explain the parser"`;
      const result = await execa('script', ['-qec', command, '/dev/null'], {
        env: { ...baseEnv(), ...f.env, BULLSWARM_HOME: f.home, TERM: 'xterm' },
        extendEnv: false,
        cwd: f.work,
        reject: false,
      });
      expect(result.exitCode).toBe(0);
      const raw = String(result.stdout);
      expect(raw).toContain('\u001b[2m'); // dim progress lines
      const text = raw.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r/g, '');
      expect(text).toMatch(/^→ \[sim:a\] most-behind capable pool \(surplus 40\)$/m);
      expect(text).toMatch(/^ {2}attempt 1 started · model sim\/standard · pid \d+$/m);
      expect(text).toMatch(
        /^ {2}attempt 1 finished process after \d+\.\ds: exited with code 1.* · retrying$/m,
      );
      expect(text).toMatch(
        /^→ \[sim:b\] fallback from sim:a after crash \(exit 1\) · most-behind capable pool \(surplus 20\)$/m,
      );
      expect(text).toMatch(/^ {2}attempt 2 finished ok after \d+\.\ds$/m);
      expect(text).toMatch(/^sim: done: Explain the parser$/m);
      // NO_COLOR turns the colour off, the progress stays.
      const plain = await execa('script', ['-qec', command, '/dev/null'], {
        env: { ...baseEnv(), ...f.env, BULLSWARM_HOME: f.home, TERM: 'xterm', NO_COLOR: '1' },
        extendEnv: false,
        cwd: f.work,
        reject: false,
      });
      expect(String(plain.stdout)).not.toContain('\u001b[');
      expect(String(plain.stdout)).toMatch(/ {2}attempt 2 finished ok after/);
    },
  );
});
