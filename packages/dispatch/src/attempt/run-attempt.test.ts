import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isPidAlive } from '@bullswarm/connectors/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_AGENT, fakeAgentConnector, TEST_NOW } from '../test-support/dispatch-fixture';
import { type RunAttemptOptions, runAttempt } from './run-attempt';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function options(mode: string, overrides: Partial<RunAttemptOptions> = {}): RunAttemptOptions {
  const dir = mkdtempSync(join(tmpdir(), 'bullswarm-attempt-'));
  dirs.push(dir);
  return {
    connector: fakeAgentConnector(mode, 'text'),
    poolId: `fake-${mode}`,
    accountEnv: {},
    bullswarmHome: dir,
    prompt: 'hello',
    cwd: dir,
    action: 'run',
    outputDir: join(dir, 'out'),
    env: { PATH: process.env.PATH ?? '', BULLSWARM_NOW: new Date(TEST_NOW).toISOString() },
    killGraceMs: 1_000,
    clock: () => TEST_NOW,
    ...overrides,
  };
}

describe('runAttempt (one spawned attempt, usable on its own)', () => {
  it("removes every caller marker from the inherited environment and sets the pool's BULLSWARM_POOL and the home", async () => {
    const result = await runAttempt(
      options('env', {
        env: {
          PATH: process.env.PATH ?? '',
          CLAUDECODE: '1',
          CODEX_THREAD_ID: 't-1',
          CODEX_SANDBOX: 'seatbelt',
          KEEP_ME: 'yes',
          BULLSWARM_POOL: 'the-caller',
        },
        callerMarkers: ['CLAUDECODE', 'CODEX_*'],
        accountEnv: { ACCOUNT_DIR: '/accounts/a' },
        extraEnv: { EXTRA: 'x' },
        poolId: 'fake:a',
      }),
    );
    expect(result.kind).toBe('ok');
    const env = JSON.parse(result.answer) as Record<string, string>;
    expect(env).toMatchObject({
      KEEP_ME: 'yes',
      ACCOUNT_DIR: '/accounts/a',
      EXTRA: 'x',
      BULLSWARM_POOL: 'fake:a',
      // options() puts the attempt files in <home>/out.
      BULLSWARM_HOME: dirname(dirname(result.outputFile)),
    });
    for (const marker of ['CLAUDECODE', 'CODEX_THREAD_ID', 'CODEX_SANDBOX'])
      expect(env[marker]).toBeUndefined();
  });

  it('gives the agent a closed stdin (it reads end-of-file at once), or the invocation stdin', async () => {
    const closed = await runAttempt(options('stdin'));
    expect(closed).toMatchObject({ kind: 'ok', answer: 'stdin:[]' });

    const connector = fakeAgentConnector('stdin', 'text', {
      invocation: { command: process.execPath, args: [FAKE_AGENT, 'stdin'], prompt: { mode: 'stdin' } },
    });
    const fed = await runAttempt(options('stdin', { connector, prompt: 'fed on stdin' }));
    expect(fed).toMatchObject({ kind: 'ok', answer: 'stdin:[fed on stdin]' });
  });

  it('a usage-limit notice ends a CLI that would hang, at once, as quota with the reset', async () => {
    const result = await runAttempt(
      options('limit-then-hang', { connector: fakeAgentConnector('limit-then-hang', 'claude-stream-json') }),
    );
    expect(result).toMatchObject({ kind: 'quota', stalled: false, signal: 'SIGTERM' });
    expect(result.resetsAt).toBe(Math.floor((TEST_NOW + 90 * 60_000) / 1000) * 1000);
    expect(isPidAlive(result.pid!)).toBe(false);
  });

  it('a worker that ignores SIGTERM is killed after the grace', async () => {
    const result = await runAttempt(options('ignore-term', { silenceMs: 2_000, killGraceMs: 300 }));
    expect(result).toMatchObject({ kind: 'stalled', why: 'stalled: no output for 2s', signal: 'SIGKILL' });
    expect(readFileSync(result.outputFile, 'utf8')).toBe('partial output\n');
    expect(isPidAlive(result.pid!)).toBe(false);
  });

  it('processes an agent leaves holding its output are ended once it has exited', async () => {
    const result = await runAttempt(options('orphan-pipe'));
    expect(result).toMatchObject({ kind: 'ok', answer: 'answered' });
    const grandchild = Number(/grandchild pid (\d+)/.exec(readFileSync(result.stderrFile, 'utf8'))?.[1]);
    expect(grandchild).toBeGreaterThan(0);
    expect(isPidAlive(grandchild)).toBe(false);
  });

  it('a command that cannot start is a process failure with the reason, not an exception', async () => {
    const connector = fakeAgentConnector('env', 'text', {
      invocation: {
        command: '/nonexistent/bullswarm-agent',
        args: [],
        prompt: { mode: 'arg', args: ['{{prompt}}'] },
      },
    });
    const result = await runAttempt(options('env', { connector }));
    expect(result.kind).toBe('process');
    expect(result.why).toMatch(/^spawn failed: .*ENOENT/);
    expect(result.outputFile.endsWith('out-run-attempt-1')).toBe(true);
  });

  it('numbers attempts after the files already there, and reports the start through onStarted', async () => {
    const base = options('env');
    const started: number[] = [];
    const first = await runAttempt({ ...base, onStarted: (s) => started.push(s.attempt) });
    const second = await runAttempt({ ...base, onStarted: (s) => started.push(s.attempt) });
    const later = await runAttempt({ ...base, minAttempt: 7 });
    expect([first.attempt, second.attempt, later.attempt]).toEqual([1, 2, 7]);
    expect(started).toEqual([1, 2]);
  });
});
