import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

function home(): string {
  const dir = dirs.make();
  writeTestHome(dir, { now: NOW, pools: [{ connector: 'sim', account: 'a' }, { connector: 'echo' }] });
  return dir;
}

/** A stack trace line (`    at fn (file:line:col)`). */
const STACK = /^\s+at /m;

describe('exit code 2 for usage errors and bad input, never a stack without --debug', () => {
  it('--home "" is refused naming the flag (BULLSWARM_HOME="" keeps meaning the default home)', async () => {
    const cwd = dirs.make();
    const result = await bullswarm(['pools', '--home', ''], { cwd });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--home "": expected a directory path');
    expect(result.stderr).not.toContain('bug in bullswarm');
    const byEnv = await bullswarm(['pools'], { cwd, env: { BULLSWARM_HOME: '', HOME: cwd } });
    expect(byEnv.stderr).not.toContain('--home');
    expect(readdirSync(cwd)).not.toContain('state.json');
  });

  it('a home that is a file is "not a directory", naming it (pools, workflow list, demo)', async () => {
    const file = join(dirs.make(), 'a-file');
    writeFileSync(file, 'x');
    for (const args of [['pools'], ['workflow', 'list'], ['demo', '--home', file]]) {
      const result = await bullswarm(args, { home: file });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`${file} is not a directory`);
      expect(result.stderr).not.toContain('bug in bullswarm');
      expect(result.stderr).not.toMatch(STACK);
    }
  });

  it('an unknown flag', async () => {
    const result = await bullswarm(['pools', '--bogus'], { home: home() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("error: unknown option '--bogus'");
    expect(result.stderr).not.toMatch(STACK);
  });

  it('an unknown command, with a suggestion', async () => {
    const result = await bullswarm(['pool'], { home: home() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("error: unknown command 'pool'");
    expect(result.stderr).toContain('pools');
  });

  it('an unknown lane names the flag and the valid lanes', async () => {
    const result = await bullswarm(['run', '--lane', 'deploy', '--dry-run', 'x'], { home: home() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("option '--lane <lane>' argument 'deploy' is invalid");
    expect(result.stderr).toContain('analyze, build, chore');
  });

  it('a missing --lane', async () => {
    const result = await bullswarm(['run', '--dry-run', 'x'], { home: home() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('error: --lane is required: one of analyze, build, chore\n');
  });

  it('an unknown option is named as such, even without --lane', async () => {
    const result = await bullswarm(['run', '--bogus', 'x'], { home: home() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown option '--bogus'");
    expect(result.stderr).not.toContain('--lane');
  });

  it('run --json prints its usage errors as one JSON object on stdout, nothing on stderr', async () => {
    const dir = home();
    const missing = await bullswarm(['run', '--json', '--lane', 'analyze'], { home: dir });
    expect(missing).toMatchObject({ exitCode: 2, stderr: '' });
    expect(JSON.parse(missing.stdout)).toEqual({
      ok: false,
      kind: 'usage',
      flag: '<prompt>',
      message: expect.stringContaining('missing <prompt>'),
    });
    const pool = await bullswarm(['run', '--json', '--lane', 'analyze', '--worker-pool', 'nope', 'x'], {
      home: dir,
    });
    expect(pool).toMatchObject({ exitCode: 2, stderr: '' });
    expect(JSON.parse(pool.stdout)).toMatchObject({
      ok: false,
      kind: 'usage',
      message: expect.stringContaining('nope'),
    });
    // commander's own parse errors, too (an invalid choice, an unknown option)
    const lane = await bullswarm(['run', '--json', '--lane', 'deploy', 'x'], { home: dir });
    expect(lane).toMatchObject({ exitCode: 2, stderr: '' });
    expect(JSON.parse(lane.stdout)).toEqual({
      ok: false,
      kind: 'usage',
      flag: '--lane',
      message: expect.stringContaining("argument 'deploy' is invalid"),
    });
    const bogus = await bullswarm(['run', '--lane', 'analyze', '--bogus', '--json', 'x'], { home: dir });
    expect(bogus).toMatchObject({ exitCode: 2, stderr: '' });
    expect(JSON.parse(bogus.stdout)).toMatchObject({ kind: 'usage', flag: '--bogus' });
    // without --json the same errors stay on stderr
    const plain = await bullswarm(['run', '--lane', 'analyze'], { home: dir });
    expect(plain).toMatchObject({ exitCode: 2, stdout: '' });
    expect(plain.stderr).toMatch(/^error: missing <prompt>/);
  });

  it('an --effort tier no connector declares', async () => {
    const result = await bullswarm(['run', '--lane', 'build', '--effort', 'hgih', '--dry-run', 'x'], {
      home: home(),
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'error: --effort "hgih" is not a tier any connector declares: expected one of low, medium, high\n',
    );
  });

  it.each(['two', '11', '99999'])('a bad --retry-attempts value (%s): 0 to 10', async (value) => {
    const result = await bullswarm(['run', '--lane', 'build', '--retry-attempts', value, 'x'], {
      home: home(),
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      `error: --retry-attempts "${value}" is not valid: expected a whole number from 0 to 10\n`,
    );
  });

  it('an unknown pool lists the known pools', async () => {
    const result = await bullswarm(['run', '--lane', 'chore', '--dry-run', '--worker-pool', 'nope', 'x'], {
      home: home(),
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('error: unknown pool "nope": known pools: sim:a, echo\n');
  });

  it('a corrupt state.json names the file and the field, and the file is left untouched', async () => {
    const dir = home();
    const statePath = join(dir, 'state.json');
    const state = JSON.parse(readFileSync(statePath, 'utf8'));
    state.pools[0].enabeld = true; // a typo
    const corrupt = `${JSON.stringify(state, null, 2)}\n`;
    writeFileSync(statePath, corrupt);
    for (const args of [
      ['pools'],
      ['pools', 'disable', 'sim:a'],
      ['run', '--lane', 'chore', '--dry-run', 'x'],
    ]) {
      const result = await bullswarm(args, { home: dir });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(`^error: ${statePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: pools\\[0\\]`),
      );
      expect(result.stderr).toContain('enabeld');
      expect(result.stderr).not.toMatch(STACK);
      expect(readFileSync(statePath, 'utf8')).toBe(corrupt);
    }
  });

  it('unparseable state.json says where', async () => {
    const dir = home();
    writeFileSync(join(dir, 'state.json'), '{"version": 1, "pools": [}\n');
    const result = await bullswarm(['pools'], { home: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(join(dir, 'state.json'));
    expect(result.stderr).toMatch(/line 1/);
  });

  it('a bad BULLSWARM_NOW names the variable and the expected form', async () => {
    const result = await bullswarm(['pools'], { home: home(), env: { BULLSWARM_NOW: 'yesterday' } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('BULLSWARM_NOW="yesterday" is not valid: expected an ISO-8601 instant');
  });

  it('--debug adds the stack trace', async () => {
    const result = await bullswarm(
      ['--debug', 'run', '--lane', 'chore', '--dry-run', '--worker-pool', 'nope', 'x'],
      {
        home: home(),
      },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('error: unknown pool "nope"');
    expect(result.stderr).toMatch(STACK);
  });

  it('--help and --version exit 0; no command at all is a usage error', async () => {
    const help = await bullswarm(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Usage: bullswarm');
    expect(help.stdout).toContain('Examples:');
    const version = await bullswarm(['--version']);
    expect(version.exitCode).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
    const bare = await bullswarm([]);
    expect(bare.exitCode).toBe(2);
    expect(bare.stderr).toContain('Usage: bullswarm');
  });

  it('every command has help text with an example', async () => {
    const commands = [
      ['pools'],
      ['pools', 'add'],
      ['pools', 'remove'],
      ['pools', 'enable'],
      ['pools', 'disable'],
      ['pools', 'label'],
      ['run'],
      ['assignments'],
      ['strategy'],
      ['strategy', 'assign'],
      ['strategy', 'unassign'],
      ['strategy', 'apply'],
      ['strategy', 'set-subscription'],
      ['setup'],
      ['meters', 'set'],
      ['meters', 'clear'],
      ['meters', 'claude-statusline'],
      ['demo'],
    ];
    for (const command of commands) {
      const result = await bullswarm([...command, '--help']);
      expect(result.exitCode, command.join(' ')).toBe(0);
      expect(result.stdout, command.join(' ')).toContain(`$ bullswarm ${command.join(' ')}`);
    }
  });
});
