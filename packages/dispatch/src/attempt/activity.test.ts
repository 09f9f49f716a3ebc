import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ConnectorManifestInput, defineConnector } from '@bullswarm/connectors';
import { isPidAlive } from '@bullswarm/connectors/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_AGENT, fakeAgentConnector, TEST_NOW } from '../test-support/dispatch-fixture';
import { type RunAttemptOptions, runAttempt } from './run-attempt';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The shipped Codex manifest (its `activity` names), run as the fake agent in `mode`. */
function codexAs(mode: string) {
  const path = fileURLToPath(new URL('../../../../providers/codex/connector.json', import.meta.url));
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as ConnectorManifestInput;
  return defineConnector({
    manifest: {
      ...manifest,
      $schema: undefined,
      invocation: {
        command: process.execPath,
        args: [FAKE_AGENT, mode],
        prompt: { mode: 'arg', args: ['{{prompt}}'], position: 'last' },
        outputArgs: [],
      },
    },
    source: 'providers/codex/connector.json (fake agent)',
  });
}

function options(
  overrides: Partial<RunAttemptOptions> & Pick<RunAttemptOptions, 'connector'>,
): RunAttemptOptions {
  const dir = mkdtempSync(join(tmpdir(), 'bullswarm-activity-'));
  dirs.push(dir);
  return {
    poolId: 'codex',
    accountEnv: {},
    bullswarmHome: dir,
    prompt: 'hello',
    cwd: dir,
    action: 'run',
    outputDir: join(dir, 'out'),
    env: { PATH: process.env.PATH ?? '' },
    killGraceMs: 1_000,
    clock: () => TEST_NOW,
    ...overrides,
  };
}

describe('only progress restarts the silence clock; network waits are bounded', () => {
  it('Codex without network (the captured reconnect loop): a process failure naming the notice once the bound passes', async () => {
    const result = await runAttempt(
      options({ connector: codexAs('codex-offline'), silenceMs: 600_000, networkWaitMs: 1_000 }),
    );
    expect(result).toMatchObject({
      kind: 'process',
      why: 'codex: no network: "Reconnecting... waiting for network" for 1s',
      noNetwork: true,
      stalled: false,
    });
    expect(result.workerMs).toBeGreaterThanOrEqual(1_000);
    expect(isPidAlive(result.pid!)).toBe(false);
  });

  it('noise that is not a network wait does not restart the silence clock: the worker stalls', async () => {
    const result = await runAttempt(
      options({ connector: codexAs('codex-noise'), silenceMs: 1_000, networkWaitMs: 600_000 }),
    );
    expect(result).toMatchObject({
      kind: 'stalled',
      why: 'stalled: no output for 1s',
      stallClock: 'silence',
    });
    expect(isPidAlive(result.pid!)).toBe(false);
  });

  it('a connector that names nothing keeps the byte rule: the same noise keeps the worker alive', async () => {
    const { manifest } = codexAs('codex-noise');
    const plain = fakeAgentConnector('codex-noise', 'codex-jsonl');
    expect(plain.activity).toBeUndefined();
    expect(manifest.activity?.noise).toContain('error');
    const result = await runAttempt(
      options({ connector: plain, silenceMs: 1_000, networkWaitMs: 1_000, timeoutMs: 2_500 }),
    );
    // Bytes every 100 ms: neither the silence clock nor the network bound ends it; the timeout does.
    expect(result.kind).toBe('timeout');
  });
});
