import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileWriteError, isPidAlive, WRITE_FAULT_VARIABLE } from '@bullswarm/connectors/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeAgentConnector, TEST_NOW } from '../test-support/dispatch-fixture';
import { type RunAttemptOptions, runAttempt } from './run-attempt';

const dirs: string[] = [];
afterEach(() => {
  delete process.env[WRITE_FAULT_VARIABLE];
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Planted values are assembled at run time so this file carries no token-shaped literal.
const GITHUB = `gh${'p'}_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`;
const ANTHROPIC = `sk-ant-${'api03-'}${'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2'}`;
const AWS = `AK${'IA'}${'Q3EGRVZ5MNX7TY2K'}`;
const PROCESS_SECRET = 'process-secret-value-77';
const POOL_SECRET = 'pool-secret-value-zz9';
const SECRETS = [GITHUB, ANTHROPIC, AWS, PROCESS_SECRET, POOL_SECRET];
const LEAK = `leak ${SECRETS.join(' ')}`;
const MARKED =
  'leak [redacted github-token] [redacted anthropic-key] [redacted aws-access-key] [redacted env:MY_DEPLOY_TOKEN] [redacted env:ACME_API_KEY]';

function options(env: Record<string, string>): RunAttemptOptions {
  const dir = mkdtempSync(join(tmpdir(), 'bullswarm-attempt-output-'));
  dirs.push(dir);
  return {
    connector: fakeAgentConnector('print', 'text'),
    poolId: 'fake:a',
    accountEnv: { ACME_API_KEY: POOL_SECRET },
    bullswarmHome: dir,
    prompt: 'hello',
    cwd: dir,
    action: 'run',
    outputDir: join(dir, 'out'),
    env: { PATH: process.env.PATH ?? '', MY_DEPLOY_TOKEN: PROCESS_SECRET, ...env },
    killGraceMs: 1_000,
    clock: () => TEST_NOW,
  };
}

describe('attempt transcripts', () => {
  it("are written redacted: every token shape and the process's and the pool's credential values, also when chunks cut them", async () => {
    const result = await runAttempt(
      options({ FAKE_STDOUT: `${LEAK}\nsecond ${LEAK}\nno newline ${GITHUB}`, FAKE_STDERR: `${LEAK}\n` }),
    );
    expect(result.kind).toBe('ok');
    const stdout = readFileSync(result.outputFile, 'utf8');
    const stderr = readFileSync(result.stderrFile, 'utf8');
    expect(stdout).toBe(`${MARKED}\nsecond ${MARKED}\nno newline [redacted github-token]`);
    expect(stderr).toBe(`${MARKED}\n`);
  });

  it('a transcript that cannot be written (a full disk) ends the agent and throws FileWriteError naming the file; what was written stays', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join('');
    // The first 3 writes of out-run-attempt-1 land, then the disk is "full".
    process.env[WRITE_FAULT_VARIABLE] = 'ENOSPC:out-run-attempt-1:3';
    let pid: number | undefined;
    const opts = options({ FAKE_STDOUT: lines, FAKE_PIECE: '8', FAKE_HANG: '1' });
    const error = await runAttempt({ ...opts, onStarted: (started) => (pid = started.pid) }).catch(
      (e: unknown) => e,
    );
    expect(FileWriteError.isInstance(error)).toBe(true);
    const fault = error as FileWriteError;
    expect(fault.code).toBe('ENOSPC');
    expect(fault.path).toBe(join(opts.outputDir, 'out-run-attempt-1'));
    expect(fault.fault).toBe('failure');
    expect(fault.message).toMatch(
      /^cannot write .*out-run-attempt-1: no space left on its disk \(ENOSPC\); what was written before is kept/,
    );
    // The agent was hanging; it was ended, not left behind.
    expect(pid).toBeDefined();
    expect(isPidAlive(pid as number)).toBe(false);
    expect(readFileSync(fault.path, 'utf8')).toBe('line 0\nline 1\nline 2\n');
  });
});
