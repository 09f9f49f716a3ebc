import { dirname, join } from 'node:path';
import { nowEnv, writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const weekly = (usedPct: number) => [{ kind: 'weekly' as const, usedPct, resetsInMin: 5040 }];
/** A PATH with node and the shell tools, and no agent CLI (not even the tests' stand-ins). */
const NO_AGENT_PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;

/** A codex pool (file meter, the least used) and a sim pool, on a machine without codex. */
function homeWithoutCodex(): { home: string; env: Record<string, string> } {
  const home = dirs.make();
  writeTestHome(home, {
    now: NOW,
    pools: [
      { connector: 'codex', meter: { type: 'file' }, windows: weekly(10) },
      { connector: 'sim', account: 'b', windows: weekly(30) },
    ],
  });
  return { home, env: { ...nowEnv(NOW), PATH: NO_AGENT_PATH } };
}

describe('a pool whose CLI is not installed is unavailable, not ready', () => {
  it('pools shows UNAVAILABLE (codex not on PATH); --json says so in problem and cli', async () => {
    const { home, env } = homeWithoutCodex();
    const pools = await bullswarm(['pools'], { home, env });
    expect(pools.exitCode).toBe(0);
    expect(pools.stdout).toMatch(/^codex +cost=3 .* UNAVAILABLE \(codex not on PATH\)$/m);
    expect(pools.stdout).toMatch(/^sim:b +cost=1 .* ready$/m);
    const json = JSON.parse((await bullswarm(['pools', '--json'], { home, env })).stdout);
    expect(json.pools[0]).toMatchObject({
      id: 'codex',
      state: 'unavailable',
      states: ['unavailable'],
      problem: 'codex not on PATH',
      cli: { command: 'codex', path: null },
    });
    expect(json.pools[1].cli).toMatchObject({ command: 'bullswarm-sim' });
  });

  it('is never picked: the run goes to the other pool, and the reason names why', async () => {
    const { home, env } = homeWithoutCodex();
    const result = await bullswarm(['run', '--lane', 'analyze', '--json', 'Explain the parser'], {
      home,
      env,
      cwd: home,
    });
    expect(result.exitCode).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({ ok: true, poolId: 'sim:b' });
    expect(json.reason).toContain('excluded: codex codex not on PATH');
  });

  it('a pin on it comes back at once with the reason: no attempt, nothing retried', async () => {
    const { home, env } = homeWithoutCodex();
    const args = ['run', '--lane', 'analyze', '--worker-pool', 'codex', '--json', 'Explain the parser'];
    const result = await bullswarm(args, { home, env, cwd: home });
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: false,
      kind: 'unavailable',
      poolId: null,
      why: 'pinned to codex (--worker-pool): codex not on PATH',
      attempts: [],
    });
    expect((await bullswarm(['assignments'], { home })).stdout).toBe('nothing in flight\n');
  });

  it('pools add warns at once, for a CLI not on PATH and for a --command that does not exist', async () => {
    const home = dirs.make();
    const env = { PATH: NO_AGENT_PATH };
    const added = await bullswarm(['pools', 'add', 'codex'], { home, env });
    expect(added.exitCode).toBe(0);
    expect(added.stdout).toBe('added pool codex\n');
    expect(added.stderr).toBe(
      'warning: pool codex cannot run: codex not on PATH; it shows UNAVAILABLE in bullswarm pools until then (install Codex CLI, or add the pool with --command <path>)\n',
    );
    const missing = join(home, 'no-such', 'codex');
    const json = await bullswarm(['pools', 'add', 'codex:work', '--command', missing, '--json'], {
      home,
      env,
    });
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout).warnings).toEqual([
      `pool codex:work cannot run: ${missing} does not exist; it shows UNAVAILABLE in bullswarm pools until then (fix the path: bullswarm pools remove codex:work, then add it again with the right --command)`,
    ]);
    expect((await bullswarm(['pools'], { home, env })).stdout).toContain(
      `UNAVAILABLE (${missing} does not exist) command=${missing}`,
    );
    // With the CLI there, nothing to warn about.
    const sim = await bullswarm(['pools', 'add', 'sim:a'], { home, env });
    expect(sim).toMatchObject({ exitCode: 0, stderr: '' });
  });
});
