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
      low: 'gpt-6-luna',
      medium: 'gpt-6.2-sol',
      high: 'gpt-6.2-astra',
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

  it('skips a pool whose id is already a label, naming the label and the fix; the others are created', async () => {
    const { home, env } = machine();
    const added = await bullswarm(['pools', 'add', 'sim:a', '--label', 'claude-code'], { home, env });
    expect(added.exitCode).toBe(0);
    const result = await bullswarm(['setup', '--yes'], { home, env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('found 4 pool(s), 3 to create:');
    expect(result.stdout).toMatch(/\(label of sim:a\) {2}claude-code +/);
    expect(result.stdout).toContain('created 3 pool(s): claude-code:acme, codex, codex:work');
    expect(result.stderr).toBe(
      'warning: not creating pool claude-code: "claude-code" is the label of pool sim:a, and a label is never another pool\'s id; change it with `bullswarm pools label sim:a <new-label>` (or `--clear`), then run setup again\n',
    );
    const state = JSON.parse(readFileSync(join(home, 'state.json'), 'utf8'));
    expect(state.pools.map((p: { id: string }) => p.id)).toEqual([
      'sim:a',
      'claude-code:acme',
      'codex',
      'codex:work',
    ]);
    // the home still works, the label still names sim:a
    const pools = await bullswarm(['pools', '--json'], { home, env });
    expect([pools.exitCode, pools.stderr]).toEqual([0, '']);
    const views = JSON.parse(pools.stdout).pools as { id: string; poolLabel: string }[];
    expect(views.find((view) => view.id === 'sim:a')?.poolLabel).toBe('claude-code');

    const json = await bullswarm(['setup', '--yes', '--json'], { home, env });
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      create: [],
      created: [],
      skipped: [{ poolId: 'claude-code', labelOf: 'sim:a' }],
    });
    // after relabelling, setup creates it
    expect((await bullswarm(['pools', 'label', 'sim:a', 'simmy'], { home, env })).exitCode).toBe(0);
    const last = await bullswarm(['setup', '--yes', '--json'], { home, env });
    expect([last.exitCode, JSON.parse(last.stdout).created, JSON.parse(last.stdout).skipped]).toEqual([
      0,
      ['claude-code'],
      [],
    ]);
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
    expect(result.stdout).toMatch(/no agent CLIs found on PATH \(looked for [^)]*\bclaude\b[^)]*\bcodex\b/);
    expect(result.stdout).toContain('`bullswarm demo`');
    expect(result.stdout).toContain('`bullswarm pools add <connector>[:<account>] --command <path>`');
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
