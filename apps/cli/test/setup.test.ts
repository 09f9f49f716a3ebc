import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, bullswarm, CLI_PATH, tempDirs } from './support/cli';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/**
 * A machine with fake `claude` and `codex` executables on a temp PATH (and nothing else there),
 * and account directories `~/.claude-acme` and `~/.codex-work` in a temp HOME.
 */
function machine(): { home: string; env: Record<string, string> } {
  const root = dirs.make();
  const bin = join(root, 'bin');
  const userHome = join(root, 'user');
  mkdirSync(bin);
  mkdirSync(join(userHome, '.claude-acme'), { recursive: true });
  mkdirSync(join(userHome, '.codex-work'), { recursive: true });
  for (const name of ['claude', 'codex']) {
    writeFileSync(join(bin, name), '#!/bin/sh\necho "fake $0"\n');
    chmodSync(join(bin, name), 0o755);
  }
  // Not executable: detection must not take it for a CLI.
  writeFileSync(join(bin, 'gemini'), '#!/bin/sh\n');
  return { home: join(root, 'bullswarm-home'), env: { PATH: bin, HOME: userHome } };
}

const EXPECTED = ['claude-code', 'claude-code:acme', 'codex', 'codex:work'];

describe('bullswarm setup', () => {
  it('off a terminal without --yes prints the plan and exits 2 asking for --yes, creating nothing', async () => {
    const { home, env } = machine();
    const result = await bullswarm(['setup'], { home, env });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toContain('found 4 pool(s), 4 to create:');
    for (const id of EXPECTED)
      expect(result.stdout).toMatch(new RegExp(`\\+ create {2}${id.replace(':', ':')} +`));
    expect(result.stdout).toContain(join(env.HOME!, '.claude-acme'));
    expect(result.stderr).toContain('run `bullswarm setup --yes`');
    expect(existsSync(join(home, 'state.json'))).toBe(false);
  });

  it('--yes --strategy creates the pools with the connector default models and pins nothing; a rerun skips them', async () => {
    const { home, env } = machine();
    const result = await bullswarm(['setup', '--yes', '--strategy'], { home, env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`created 4 pool(s): ${EXPECTED.join(', ')}`);
    expect(result.stdout).toContain('pinned nothing');
    const state = JSON.parse(readFileSync(join(home, 'state.json'), 'utf8'));
    expect(state.pools.map((p: { id: string }) => p.id)).toEqual(EXPECTED);
    expect(state.pools[1]).toMatchObject({
      id: 'claude-code:acme',
      connector: 'claude-code',
      account: 'acme',
      enabled: true,
      models: { low: 'haiku', medium: 'sonnet', high: 'opus' },
    });
    expect(state.pools[2].models).toEqual({
      low: 'gpt-5.1-codex-mini',
      medium: 'gpt-5.1-codex',
      high: 'gpt-5.1-codex-max',
    });
    expect(state.assignments).toEqual({});

    const again = await bullswarm(['setup', '--yes', '--json'], { home, env });
    expect(again.exitCode).toBe(0);
    const json = JSON.parse(again.stdout);
    expect(json.create).toEqual([]);
    expect(json.created).toEqual([]);
    expect(json.found.map((f: { poolId: string; exists: boolean }) => [f.poolId, f.exists])).toEqual(
      EXPECTED.map((id) => [id, true]),
    );
  });

  it('without --strategy leaves the models to the connector defaults at routing time', async () => {
    const { home, env } = machine();
    const result = await bullswarm(['setup', '--yes', '--json'], { home, env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ created: EXPECTED, applied: [] });
    const state = JSON.parse(readFileSync(join(home, 'state.json'), 'utf8'));
    expect(state.pools[0].models).toEqual({});
  });

  it('finds nothing on an empty PATH', async () => {
    const root = dirs.make();
    const result = await bullswarm(['setup'], {
      home: join(root, 'h'),
      env: { PATH: join(root, 'empty'), HOME: root },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('no agent CLIs found on PATH');
  });

  const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!hasScript)(
    'on a terminal asks "Create these N pools? [y/N]" and creates them on y',
    async () => {
      const { home, env } = machine();
      // `script` gives the command a pseudo-terminal; our stdin is forwarded to it.
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI_PATH)} setup`;
      const result = await execa('script', ['-qec', command, '/dev/null'], {
        env: { ...baseEnv(), ...env, BULLSWARM_HOME: home, PATH: `${env.PATH}:/usr/bin:/bin` },
        extendEnv: false,
        input: 'y\n',
        reject: false,
      });
      expect(String(result.stdout)).toContain('Create these 4 pools? [y/N]');
      expect(String(result.stdout)).toContain('created 4 pool(s)');
      expect(result.exitCode).toBe(0);
      const state = JSON.parse(readFileSync(join(home, 'state.json'), 'utf8'));
      expect(state.pools).toHaveLength(4);
    },
  );
});
