import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readError } from '../test-support/read-error';
import { readContext } from '../test-support/temp-dir';
import { createCommandMeterReader } from './command-meter-reader';

const fakeMeter = fileURLToPath(new URL('../__fixtures__/fake-meter.mjs', import.meta.url));
const node = process.execPath;

describe('command reader', () => {
  it('parses stdout as a meter reading', async () => {
    const reading = {
      windows: [{ kind: 'five_hour', usedPct: 12, resetsAt: 1_780_000_000_000 }],
      rateLimited: false,
    };
    const result = await createCommandMeterReader({
      command: node,
      args: [fakeMeter, 'ok', JSON.stringify(reading)],
    }).read(readContext());
    expect(result).toEqual({
      kind: 'reading',
      rateLimited: false,
      windows: [{ kind: 'five_hour', usedPct: 12, resetsAt: 1_780_000_000_000, windowMinutes: 300 }],
    });
  });

  it('runs without a shell, with the account env and expanded templates', async () => {
    const result = await createCommandMeterReader({
      command: node,
      args: [fakeMeter, 'env', '{{env.METER_NAME}}'],
    }).read(readContext({ env: { METER_NAME: 'FAKE_USED', FAKE_USED: '64' } }));
    expect(result.kind === 'reading' && result.windows[0]?.usedPct).toBe(64);
    // A shell metacharacter is passed through literally, never interpreted: the meter prints
    // `$(echo {})` itself (a shell would have substituted `{}`, which is JSON).
    const literal = await readError(
      createCommandMeterReader({ command: node, args: [fakeMeter, 'ok', '$(echo {})'] }).read(readContext()),
    );
    expect(literal.reason).toBe('bad-reading');
    expect(literal.message).toMatch(/it is not JSON \(.*"\$\(echo \{\}\)"/);
  });

  it('names the command and the field when stdout is not a valid reading', async () => {
    const bad = await readError(
      createCommandMeterReader({
        command: node,
        args: [fakeMeter, 'ok', '{"windows":[{"kind":"weekly"}]}'],
      }).read(readContext()),
    );
    expect(bad).toMatchObject({
      reason: 'bad-reading',
      fieldPath: 'windows[0].usedPct',
      sourceType: 'command',
    });
    expect(bad.message).toContain(`stdout of meter command ${node} ${fakeMeter} ok`);
    expect(bad.message).toContain('windows[0].usedPct');

    const garbage = await readError(
      createCommandMeterReader({ command: node, args: [fakeMeter, 'garbage'] }).read(readContext()),
    );
    expect(garbage).toMatchObject({ reason: 'bad-reading', fieldPath: '(root)' });
    expect(garbage.message).toMatch(/it is not JSON/);
  });

  it('reports a non-zero exit as "command exited <n>" with the stderr tail', async () => {
    const error = await readError(
      createCommandMeterReader({ command: node, args: [fakeMeter, 'exit', '3'] }).read(readContext()),
    );
    expect(error).toMatchObject({ reason: 'command-exit', status: 'command exited 3', exitCode: 3 });
    expect(error.message).toContain(`meter command ${node} ${fakeMeter} exit 3 exited 3: meter backend down`);
  });

  it('stops a command that runs past its timeout', async () => {
    const error = await readError(
      createCommandMeterReader({ command: node, args: [fakeMeter, 'hang'], timeoutMs: 300 }).read(
        readContext(),
      ),
    );
    expect(error).toMatchObject({
      reason: 'command-timeout',
      status: 'command timed out',
      isRetryable: true,
    });
  });

  it('reports a command that cannot start', async () => {
    const error = await readError(
      createCommandMeterReader({ command: 'bullswarm-no-such-meter' }).read(readContext()),
    );
    expect(error).toMatchObject({
      reason: 'command-failed',
      status: 'command failed to start',
      isRetryable: false,
    });
    expect(error.message).toContain('bullswarm-no-such-meter');
  });
});
