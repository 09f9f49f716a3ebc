import { writeTestHome } from '@bullswarm/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const NOW = Date.parse('2026-09-10T12:00:00Z');
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** A home whose `pools` output has a coloured word: a disabled pool is shown dim. */
function homeWithDisabledPool(): string {
  const home = dirs.make();
  writeTestHome(home, { now: NOW, pools: [{ connector: 'sim', account: 'a', enabled: false }] });
  return home;
}

const ESC = '\u001b[';

describe('colour: --no-color, then FORCE_COLOR, then NO_COLOR, then a terminal', () => {
  it('a pipe is plain; FORCE_COLOR=1 colours it, even with NO_COLOR; --no-color wins over both', async () => {
    const home = homeWithDisabledPool();
    const plain = await bullswarm(['pools'], { home });
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toContain('disabled');
    expect(plain.stdout).not.toContain(ESC);

    const forced = await bullswarm(['pools'], { home, env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(`${ESC}2mdisabled${ESC}22m`);
    const both = await bullswarm(['pools'], { home, env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(both.stdout).toContain(`${ESC}2mdisabled`);
    const flag = await bullswarm(['--no-color', 'pools'], { home, env: { FORCE_COLOR: '1' } });
    expect(flag.stdout).toContain('disabled');
    expect(flag.stdout).not.toContain(ESC);
    const empty = await bullswarm(['pools'], { home, env: { FORCE_COLOR: '' } });
    expect(empty.stdout).not.toContain(ESC);
  });
});

describe('subcommand help', () => {
  it.each([['run'], ['pools', 'reserve'], ['workflow', 'goal'], ['connectors', 'init'], ['completion']])(
    'bullswarm %s --help lists the global options',
    async (...path) => {
      const help = await bullswarm([...path, '--help']);
      expect(help.exitCode).toBe(0);
      const global = help.stdout.slice(help.stdout.indexOf('\nGlobal Options:\n'));
      expect(global).toMatch(/^\nGlobal Options:\n/);
      for (const flag of ['--home <dir>', '--debug', '--no-color', '--version'])
        expect(global).toContain(flag);
    },
  );
});
