import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeTestHome } from '@bullswarm/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baseEnv, bullswarm, CLI_PATH, tempDirs } from './support/cli';

const NOW = Date.parse('2026-09-10T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** A directory with a `bullswarm` on it that runs the built binary, as an installed one would. */
function binDir(): string {
  const dir = dirs.make('bullswarm-completion-bin-');
  const shim = join(dir, 'bullswarm');
  writeFileSync(
    shim,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI_PATH)} "$@"\n`,
  );
  chmodSync(shim, 0o755);
  return dir;
}

const hasShell = (shell: string) => spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;

let home: string;
let work: string;
let bin: string;
let script: string;

beforeEach(async () => {
  home = dirs.make('bullswarm-completion-home-');
  writeTestHome(home, {
    now: NOW,
    pools: [
      { connector: 'sim', account: 'a', label: 'acme' },
      { connector: 'sim', account: 'b' },
      { connector: 'echo' },
    ],
  });
  mkdirSync(join(home, 'workflows', 'wf-k3x9q2aa'), { recursive: true });
  work = dirs.make('bullswarm-completion-work-');
  writeFileSync(join(work, 'review.json'), '{}');
  bin = binDir();
  const generated = await bullswarm(['completion', 'bash']);
  expect(generated).toMatchObject({ exitCode: 0, stderr: '' });
  script = join(bin, 'bullswarm.bash');
  writeFileSync(script, generated.stdout);
});

/**
 * Sources the generated script in a real bash, sets COMP_WORDS/COMP_CWORD as readline would for
 * `line` (split on blanks and on COMP_WORDBREAKS' ":" and "="), calls the completion function and
 * returns COMPREPLY.
 */
function completeInBash(words: readonly string[], env: Record<string, string> = {}): string[] {
  const quoted = words.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const program = [
    `source ${JSON.stringify(script)}`,
    `COMP_WORDS=(${quoted})`,
    `COMP_CWORD=${words.length - 1}`,
    `COMP_LINE=${JSON.stringify(words.join(' '))}`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash, not a template
    'COMP_POINT=${#COMP_LINE}',
    '_bullswarm_completion',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash, not a template
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', program], {
    cwd: work,
    env: { ...baseEnv(), PATH: `${bin}:${process.env.PATH}`, BULLSWARM_HOME: home, ...env },
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.split('\n').filter((line) => line !== '');
}

describe('bullswarm completion bash, sourced in bash', () => {
  it('completes commands and subcommands from the command tree', () => {
    expect(completeInBash(['bullswarm', 'po'])).toEqual(['pools']);
    expect(completeInBash(['bullswarm', 'work'])).toEqual(['workflow']);
    expect(completeInBash(['bullswarm', 'pools', ''])).toEqual(
      expect.arrayContaining(['reserve', 'add', 'remove', 'enable', 'disable', 'label']),
    );
    expect(completeInBash(['bullswarm', 'connectors', 'i'])).toEqual(['init']);
    expect(completeInBash(['bullswarm', ''])).toContain('completion');
  });

  it("completes a command's flags and the global ones, and an option's choices", () => {
    const flags = completeInBash(['bullswarm', 'run', '--']);
    expect(flags).toEqual(
      expect.arrayContaining(['--lane', '--effort', '--dry-run', '--json', '--home', '--help']),
    );
    expect(completeInBash(['bullswarm', 'run', '--dr'])).toEqual(['--dry-run']);
    expect(completeInBash(['bullswarm', 'run', '--lane', ''])).toEqual(['analyze', 'build', 'chore']);
    expect(completeInBash(['bullswarm', 'run', '--lane', '=', 'b'])).toEqual(['build']);
    expect(completeInBash(['bullswarm', 'run', '--effort', 'h'])).toEqual(['high']);
  });

  it('completes pool ids and labels of the home, also after the ":" bash splits off', () => {
    expect(completeInBash(['bullswarm', 'pools', 'reserve', '']).sort()).toEqual([
      'acme',
      'echo',
      'sim:a',
      'sim:b',
    ]);
    expect(completeInBash(['bullswarm', 'run', '--worker-pool', 'ac'])).toEqual(['acme']);
    // readline splits "sim:" into "sim" ":" ""; bash then replaces only the part after the colon.
    expect(completeInBash(['bullswarm', 'pools', 'disable', 'sim', ':', ''])).toEqual(['a', 'b']);
    expect(completeInBash(['bullswarm', 'pools', 'disable', 'sim', ':', 'b'])).toEqual(['b']);
  });

  it('reads the home named by --home on the command line', () => {
    const other = dirs.make('bullswarm-completion-other-');
    writeTestHome(other, { now: NOW, pools: [{ connector: 'sim', account: 'zz' }] });
    expect(completeInBash(['bullswarm', '--home', other, 'pools', 'remove', ''])).toEqual(['sim:zz']);
  });

  it('completes workflow run ids, and file names where a file goes', () => {
    expect(completeInBash(['bullswarm', 'workflow', 'show', ''])).toEqual(['wf-k3x9q2aa']);
    expect(completeInBash(['bullswarm', 'workflow', 'goal', 'rev'])).toEqual(['review.json']);
  });

  it('never fails loudly: a home that does not validate gives no pools and prints nothing', () => {
    writeFileSync(join(home, 'state.json'), '{ not json');
    expect(completeInBash(['bullswarm', 'pools', 'reserve', ''])).toEqual([]);
    expect(completeInBash(['bullswarm', 'po'])).toEqual(['pools']);
  });
});

describe('bullswarm __complete', () => {
  it('answers value<TAB>description lines and a fallback line, exit 0, for any words', async () => {
    const result = await bullswarm(['__complete', 'zsh', 'pools', 'label', ''], { home });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout.split('\n')).toEqual(
      expect.arrayContaining(['sim:a\tpool acme', 'acme\tlabel of sim:a', ':none']),
    );
    for (const words of [
      [],
      ['--version'],
      ['--home'],
      ['run', '--', '--lane'],
      ['nonsense', '--bogus=1', ''],
    ]) {
      const odd = await bullswarm(['__complete', 'bash', ...words], { home });
      expect(odd, words.join(' ')).toMatchObject({ exitCode: 0, stderr: '' });
      expect(odd.stdout).toMatch(/:(none|files|dirs)\n$/);
    }
    expect((await bullswarm(['__complete', 'tcsh', 'po'], { home })).stdout).toBe('');
  });
});

describe('bullswarm completion', () => {
  it('exits 2 for a shell it does not know, and shows how to install in --help', async () => {
    const bad = await bullswarm(['completion', 'tcsh']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe(
      "error: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.\n",
    );
    const help = await bullswarm(['completion', '--help']);
    expect(help.stdout).toContain("echo 'source <(bullswarm completion bash)' >> ~/.bashrc");
    expect(help.stdout).toContain('bullswarm completion fish > ~/.config/fish/completions/bullswarm.fish');
  });

  // zsh and fish are checked where they are installed (bash is the one tested by completing).
  it.skipIf(!hasShell('zsh'))('zsh: the script parses (zsh -n)', async () => {
    const file = join(bin, '_bullswarm');
    writeFileSync(file, (await bullswarm(['completion', 'zsh'])).stdout);
    const result = spawnSync('zsh', ['-n', file], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it.skipIf(!hasShell('fish'))('fish: the script parses (fish -n) and completes a pool', async () => {
    const file = join(bin, 'bullswarm.fish');
    writeFileSync(file, (await bullswarm(['completion', 'fish'])).stdout);
    expect(spawnSync('fish', ['-n', file], { encoding: 'utf8' }).status).toBe(0);
    const result = spawnSync(
      'fish',
      ['--no-config', '-c', `source ${file}; complete -C 'bullswarm pools reserve sim:'`],
      {
        cwd: work,
        env: { ...baseEnv(), PATH: `${bin}:${process.env.PATH}`, BULLSWARM_HOME: home },
        encoding: 'utf8',
      },
    );
    expect(result.stdout.split('\n').map((line) => line.split('\t')[0])).toEqual(
      expect.arrayContaining(['sim:a', 'sim:b']),
    );
  });
});
