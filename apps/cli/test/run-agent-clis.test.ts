import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPidAlive } from '@bullswarm/connectors/internal';
import { nowEnv, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, startBullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];
const FAKE_AGENT = fileURLToPath(
  new URL('../../../packages/dispatch/src/__fixtures__/fake-agent.mjs', import.meta.url),
);
const CODEX_MANIFEST = fileURLToPath(new URL('../../../providers/codex/connector.json', import.meta.url));

/**
 * A home whose `codex` connector is the shipped manifest (its activity names, its flags) run as the
 * fake agent in `mode` (a home `providers/codex/connector.json` replaces the built-in one), with a
 * `codex` pool picked first and a `sim:b` pool as the place a retry goes.
 */
function homeWithFakeCodex(mode: string): string {
  const home = dirs.make();
  writeTestHome(home, {
    now: NOW,
    pools: [
      { connector: 'codex', meter: { type: 'file' }, windows: weekly(10) },
      { connector: 'sim', account: 'b', windows: weekly(30) },
    ],
  });
  const manifest = JSON.parse(readFileSync(CODEX_MANIFEST, 'utf8')) as Record<string, unknown>;
  delete manifest.$schema;
  manifest.invocation = {
    command: process.execPath,
    args: [FAKE_AGENT, mode],
    prompt: { mode: 'arg', args: ['{{prompt}}'], position: 'last' },
  };
  mkdirSync(join(home, 'providers', 'codex'), { recursive: true });
  writeFileSync(join(home, 'providers', 'codex', 'connector.json'), JSON.stringify(manifest));
  mkdirSync(join(home, 'work'));
  return home;
}

describe('bullswarm run against an agent CLI without network', () => {
  it('Codex reconnecting forever: the network-wait bound ends the attempt as a process failure, the retry goes elsewhere', async () => {
    const home = homeWithFakeCodex('codex-offline');
    const result = await bullswarm(['run', '--lane', 'analyze', '--json', 'Explain the parser'], {
      home,
      env: { ...nowEnv(NOW), BULLSWARM_WORKER_NETWORK_WAIT_SEC: '1' },
      cwd: join(home, 'work'),
    });
    expect(result.exitCode).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.attempts.map((a: { poolId: string; kind: string }) => [a.poolId, a.kind])).toEqual([
      ['codex', 'process'],
      ['sim:b', 'ok'],
    ]);
    expect(json.attempts[0].why).toBe('codex: no network: "Reconnecting... waiting for network" for 1s');
    expect(json.reason).toMatch(/^fallback from codex after no network · /);
  });

  it('SIGTERM ends the run within 5 s: the agent’s process group is ended and its ledger entry released', async () => {
    const home = homeWithFakeCodex('codex-offline');
    const run = startBullswarm(['run', '--lane', 'analyze', '--json', 'Explain the parser'], {
      home,
      env: nowEnv(NOW),
      cwd: join(home, 'work'),
    });
    // Wait (bounded) until the agent is running and recorded in the ledger.
    let workerPid: number | undefined;
    for (let i = 0; i < 300 && workerPid === undefined; i++) {
      const rows = JSON.parse((await bullswarm(['assignments', '--json'], { home })).stdout).inflight as {
        workerPid: number | null;
      }[];
      workerPid = rows[0]?.workerPid ?? undefined;
      if (workerPid === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(workerPid).toBeDefined();
    run.kill('SIGTERM');
    const ended = await Promise.race([
      run,
      new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 5_000)),
    ]);
    if (ended === 'still running') run.kill('SIGKILL');
    expect(ended).not.toBe('still running');
    expect(JSON.parse(String((ended as { stdout: string }).stdout))).toMatchObject({
      ok: false,
      kind: 'canceled',
    });
    expect(isPidAlive(workerPid!)).toBe(false);
    expect((await bullswarm(['assignments'], { home })).stdout).toBe('nothing in flight\n');
  });
});
