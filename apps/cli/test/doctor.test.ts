import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nowEnv, type TestPool, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];
/** Node and the shell tools, and no agent CLI (not even the tests' stand-ins). */
const NO_AGENT_PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;

/** A fake agent CLI: a shell script answering `--version` and a status command as told. */
function fakeCli(dir: string, name: string, answers: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  const cases = Object.entries(answers)
    .map(([args, body]) => `  ${JSON.stringify(args)}) ${body} ;;`)
    .join('\n');
  writeFileSync(
    file,
    `#!/bin/sh\ncase "$*" in\n${cases}\n  *) echo "unexpected: $*" >&2; exit 2 ;;\nesac\n`,
    {
      mode: 0o755,
    },
  );
  return file;
}

/** Every process whose environment names `home` as its BULLSWARM_HOME. */
function processesOfHome(home: string): number[] {
  const needle = `BULLSWARM_HOME=${home}\0`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/environ`, 'latin1').includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}

function home(pools: TestPool[]): string {
  const dir = dirs.make('bullswarm-cli-doctor-');
  writeTestHome(dir, { now: NOW, pools });
  return dir;
}

/** Sets a pool's own CLI (`pools add --command`) in state.json. */
function setCommand(dir: string, poolId: string, command: string): void {
  const file = join(dir, 'state.json');
  const state = JSON.parse(readFileSync(file, 'utf8'));
  state.pools.find((pool: { id: string }) => pool.id === poolId).command = command;
  writeFileSync(file, JSON.stringify(state, null, 2));
}

describe('bullswarm doctor', () => {
  it('per pool: the CLI, its version against the checked range, signed in or not, the meter, the last run; exit 1 when one cannot run', async () => {
    const dir = home([
      { connector: 'codex', meter: { type: 'file' }, windows: weekly(10) },
      { connector: 'claude-code', meter: { type: 'none' } },
      { connector: 'gemini' },
      { connector: 'sim', account: 'a', windows: weekly(30), scenario: { default: 'auth' } },
    ]);
    const bin = join(dir, 'bin');
    setCommand(
      dir,
      'codex',
      fakeCli(bin, 'codex', {
        '--version': 'echo "codex-cli 0.171.0"',
        'login status': 'echo "Not logged in"; exit 1',
      }),
    );
    setCommand(
      dir,
      'claude-code',
      fakeCli(bin, 'claude', {
        '--version': 'echo "2.0.14 (Claude Code)"',
        'auth status': `printf '{\\n  "loggedIn": true,\\n  "authMethod": "claude.ai"\\n}\\n'`,
      }),
    );
    // A generous bound for the fake CLIs' answers on a busy machine (the bound has its own test).
    const env = {
      ...nowEnv(NOW),
      PATH: NO_AGENT_PATH,
      HOME: join(dir, 'user'),
      BULLSWARM_DOCTOR_TIMEOUT_SEC: '60',
    };
    // The sim pool's last run: a sign-in failure.
    const ran = await bullswarm(
      ['run', '--lane', 'analyze', '--worker-pool', 'sim:a', 'Explain the parser'],
      {
        home: dir,
        env,
        cwd: dir,
      },
    );
    expect(ran.exitCode).toBe(1);

    const result = await bullswarm(['doctor'], { home: dir, env });
    expect(result.exitCode).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('codex  CANNOT RUN: not signed in (login status: Not logged in)');
    expect(lines).toContain(
      `  cli       ${join(bin, 'codex')} 0.171.0 (inside the checked >=0.171.0 <0.172.0)`,
    );
    expect(lines).toContain('  sign-in   not signed in (login status: Not logged in)');
    expect(lines).toContain('claude-code  warning');
    expect(lines).toContain(
      `  cli       ${join(bin, 'claude')} 2.0.14 (OUTSIDE the checked >=2.1.332 <2.2.0)`,
    );
    expect(lines).toContain('  sign-in   signed in (auth status: "loggedIn": true,)');
    expect(lines).toContain('  meter     none (the pool is unmetered by design)');
    expect(lines).toContain(
      '  warning   claude-code CLI 2.0.14 is outside the checked range >=2.1.332 <2.2.0',
    );
    expect(lines).toContain('gemini  CANNOT RUN: gemini not on PATH');
    expect(lines).toContain('  cli       gemini not found (checked with >=0.61.0 <0.62.0)');
    expect(lines).toContain('sim:a  ok');
    expect(lines.find((line) => line.startsWith('  last run  auth at '))).toMatch(
      /^ {2}last run {2}auth at 2026-11-30T12:0\d:\d\dZ \(run, analyze\): sign-in failure: /,
    );
    expect(lines).toContain(
      `  sign-in   not signed in (no ${join(dir, 'user', '.gemini', 'oauth_creds.json')} and none of GEMINI_API_KEY, GOOGLE_API_KEY, GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GENAI_USE_GCA set)`,
    );
    expect(lines.at(-2)).toBe('2 of 4 pools can run; cannot run: codex, gemini');

    const json = JSON.parse((await bullswarm(['doctor', '--json'], { home: dir, env })).stdout);
    expect(json.ok).toBe(false);
    expect(json.timeoutSec).toBe(60);
    const byId = Object.fromEntries(json.pools.map((pool: { id: string }) => [pool.id, pool]));
    expect(byId.codex).toMatchObject({
      status: 'cannot-run',
      canRun: false,
      cli: { command: join(bin, 'codex'), version: '0.171.0', checked: '>=0.171.0 <0.172.0', inRange: true },
      signIn: { state: 'signed-out' },
      meter: { source: 'file', readable: true },
      lastRun: null,
    });
    expect(byId['claude-code']).toMatchObject({
      status: 'warning',
      canRun: true,
      cli: { version: '2.0.14', inRange: false },
      signIn: { state: 'signed-in' },
    });
    expect(byId.gemini).toMatchObject({
      status: 'cannot-run',
      problems: ['gemini not on PATH'],
      cli: { command: 'gemini', path: null },
    });
    expect(byId['sim:a']).toMatchObject({
      status: 'ok',
      signIn: { state: 'unknown', evidence: 'the connector does not say how to tell' },
      lastRun: { outcome: 'auth', lane: 'analyze', why: expect.stringMatching(/^sign-in failure: /) },
    });
  });

  it('exits 0 when every pool can run', async () => {
    const dir = home([
      { connector: 'codex', meter: { type: 'file' }, windows: weekly(10) },
      { connector: 'sim', account: 'a', windows: weekly(30) },
    ]);
    const bin = join(dir, 'bin');
    fakeCli(bin, 'codex', {
      '--version': 'echo "codex-cli 0.171.0"',
      'login status': 'echo "Logged in using ChatGPT"',
    });
    const result = await bullswarm(['doctor'], {
      home: dir,
      env: { ...nowEnv(NOW), PATH: `${bin}:${NO_AGENT_PATH}` },
    });
    expect(result.exitCode).toBe(0);
    expect(
      JSON.parse(
        (
          await bullswarm(['doctor', '--json'], {
            home: dir,
            env: { ...nowEnv(NOW), PATH: `${bin}:${NO_AGENT_PATH}` },
          })
        ).stdout,
      ).timeoutSec,
    ).toBe(15);
    expect(result.stdout).toContain('  sign-in   signed in (login status: Logged in using ChatGPT)');
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('2 pools: every one can run');
  });

  it('a CLI that hangs is asked within the bound and ended: version and sign-in unknown, doctor answers', async () => {
    const dir = home([{ connector: 'codex', meter: { type: 'none' } }]);
    const bin = join(dir, 'bin');
    fakeCli(bin, 'codex', { '--version': 'exec sleep 600', 'login status': 'exec sleep 600' });
    const result = await bullswarm(['doctor', '--json'], {
      home: dir,
      env: { ...nowEnv(NOW), PATH: `${bin}:${NO_AGENT_PATH}`, BULLSWARM_DOCTOR_TIMEOUT_SEC: '0.5' },
    });
    expect(result.exitCode).toBe(0);
    const pool = JSON.parse(result.stdout).pools[0];
    expect(pool).toMatchObject({
      status: 'warning',
      cli: { path: join(bin, 'codex'), version: null, problem: 'no answer to --version within 0.5s' },
      signIn: { state: 'unknown', evidence: 'no answer to login status within 0.5s' },
      warnings: ['version unknown: no answer to --version within 0.5s'],
    });
    // Both hung CLIs were ended.
    expect(processesOfHome(dir)).toEqual([]);
  });

  it('a bad BULLSWARM_DOCTOR_TIMEOUT_SEC is a usage error naming it; no pools is exit 1 with what to do', async () => {
    const dir = home([{ connector: 'sim', account: 'a' }]);
    const bad = await bullswarm(['doctor'], { home: dir, env: { BULLSWARM_DOCTOR_TIMEOUT_SEC: 'soon' } });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('BULLSWARM_DOCTOR_TIMEOUT_SEC="soon" is not valid');
    const empty = await bullswarm(['doctor'], { home: home([]) });
    expect(empty.exitCode).toBe(1);
    expect(empty.stdout).toMatch(/^no pools: nothing can run/);
    const help = await bullswarm(['doctor', '--help']);
    expect(help.stdout).toContain('$ bullswarm doctor --json');
    expect(help.stdout).toContain('BULLSWARM_DOCTOR_TIMEOUT_SEC');
  });
});
