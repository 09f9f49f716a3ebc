import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../cli/cli-io';
import { OWN_COMMANDS } from '../cli/own-commands';
import { buildProgram } from '../cli/program';
import {
  bundleFor,
  CORE_BUNDLE,
  CORE_COMMANDS,
  commandWord,
  FULL_BUNDLE,
  GLOBAL_OPTIONS_WITH_VALUE,
} from './choose-bundle';

const io: CliIo = {
  out: () => {},
  err: () => {},
  stdin: new PassThrough(),
  env: {},
  stdoutIsTTY: false,
  stderrIsTTY: false,
  stdinIsTTY: false,
  cwd: '/',
};

describe('commandWord', () => {
  it.each([
    [['pools', '--json'], 'pools'],
    [['--home', '/h', 'pools'], 'pools'],
    [['--home=/h', 'run', '--lane', 'build'], 'run'],
    [['--debug', '--no-color', 'strategy', 'assign', 'high'], 'strategy'],
    [['--home', 'pools', 'run'], 'run'],
    [['--version'], undefined],
    [[], undefined],
  ])('%j → %s', (argv, word) => {
    expect(commandWord(argv)).toBe(word);
  });
});

describe('bundleFor', () => {
  it.each([
    [['pools', '--json'], CORE_BUNDLE],
    [['pools', 'add', 'codex'], CORE_BUNDLE],
    [['--home', '/h', 'meters', 'claude-statusline'], CORE_BUNDLE],
    [['assignments'], CORE_BUNDLE],
    [['strategy', 'apply'], CORE_BUNDLE],
    [['completion', 'bash'], CORE_BUNDLE],
    [['__complete', 'bash', 'workflow', 'show', ''], CORE_BUNDLE],
    [['help', 'run'], CORE_BUNDLE],
    [['--help'], CORE_BUNDLE],
    [[], CORE_BUNDLE],
    [['run', '--lane', 'build', 'x'], FULL_BUNDLE],
    [['demo'], FULL_BUNDLE],
    [['setup'], FULL_BUNDLE],
    [['workflow', 'list'], FULL_BUNDLE],
    [['capacity', '--self'], FULL_BUNDLE],
    [['poolz'], FULL_BUNDLE],
  ])('%j → %s', (argv, bundle) => {
    expect(bundleFor(argv)).toBe(bundle);
  });
});

describe('the routing agrees with the program', () => {
  const program = buildProgram(io);

  it('every core command is a command of the program', () => {
    const names = program.commands.map((command) => command.name());
    for (const name of CORE_COMMANDS) {
      // (`__complete` is answered before commander: run-cli.ts.)
      if (name !== 'help' && name !== '__complete') expect(names).toContain(name);
    }
  });

  it('the global options that take a value are the ones the command word skips', () => {
    const withValue = program.options
      .filter((option) => option.required || option.optional)
      .map((option) => option.long);
    expect(withValue.sort()).toEqual([...GLOBAL_OPTIONS_WITH_VALUE].sort());
  });
});

describe('buildProgram for a command word', () => {
  const full = buildProgram(io);
  const topLevel = (program: ReturnType<typeof buildProgram>) => program.commands.map((c) => c.name());

  it('the own commands are the program’s commands not registered by the swarm or workflow files', () => {
    const own = buildProgram(io, { commandWord: 'pools' });
    expect(topLevel(own).sort()).toEqual([...OWN_COMMANDS].sort());
    expect(topLevel(full)).toEqual(expect.arrayContaining([...OWN_COMMANDS]));
    expect(topLevel(full).length).toBeGreaterThan(OWN_COMMANDS.size);
  });

  it.each([...OWN_COMMANDS])(
    '%s is defined exactly as in the whole program (options, subcommands, help)',
    (name) => {
      const reduced = buildProgram(io, { commandWord: name });
      const shape = (command: ReturnType<typeof buildProgram>): unknown => ({
        help: command.helpInformation(),
        options: command.options.map((option) => option.flags),
        commands: command.commands.map(shape),
      });
      const pick = (program: ReturnType<typeof buildProgram>) =>
        shape(program.commands.find((command) => command.name() === name)!);
      expect(pick(reduced)).toEqual(pick(full));
    },
  );

  it.each([undefined, 'help', 'capacity', 'workflow', 'poolz'])('%s gets every command', (word) => {
    expect(topLevel(buildProgram(io, word === undefined ? {} : { commandWord: word }))).toEqual(
      topLevel(full),
    );
  });
});
