import { PassThrough } from 'node:stream';
import { createRedactor } from '@bullswarm/connectors/redact';
import { describe, expect, it } from 'vitest';
import { type CliIo, redactingIo } from './cli-io';
import { runCli } from './run-cli';

const GITHUB = `gh${'p'}_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`;

function captureIo(env: Record<string, string>): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    stdin: new PassThrough(),
    env,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    cwd: process.cwd(),
  };
  return { io, out, err };
}

describe('the terminal sink', () => {
  it('redacts stdout and stderr, also values of pool environments added later', () => {
    const raw = captureIo({ DEPLOY_TOKEN: 'env-secret-value-1' });
    const io = redactingIo(raw.io, createRedactor([raw.io.env]));
    io.out(`answer ${GITHUB}\n`);
    io.err('saw env-secret-value-1 and pool-secret-value-2\n');
    io.addSecretEnv?.({ ACME_API_KEY: 'pool-secret-value-2' });
    io.err('again pool-secret-value-2\n');
    expect(raw.out.join('')).toBe('answer [redacted github-token]\n');
    expect(raw.err.join('')).toBe(
      'saw [redacted env:DEPLOY_TOKEN] and pool-secret-value-2\nagain [redacted env:ACME_API_KEY]\n',
    );
  });

  it('an error echoing input (unknown pool "<token>") prints it redacted', async () => {
    const raw = captureIo({ BULLSWARM_HOME: '/nonexistent-bullswarm-home-for-test' });
    const code = await runCli(['pools', 'disable', GITHUB], raw.io);
    expect(code).toBe(2);
    expect(raw.err.join('')).not.toContain(GITHUB);
    expect(raw.err.join('')).toContain('[redacted github-token]');
  });
});
