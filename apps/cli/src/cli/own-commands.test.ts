import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './cli-io';
import { createCommandContext } from './command-context';
import { OWN_COMMAND_REGISTRARS } from './own-commands';

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

describe('the own-command table', () => {
  it.each(OWN_COMMAND_REGISTRARS.map(([name, register]) => [name, register] as const))(
    'the registrar of the %s row defines exactly that command',
    (name, register) => {
      const program = new Command('bullswarm');
      register(program, { io, contextOf: () => createCommandContext(io, {}) });
      expect(program.commands.map((command) => command.name())).toEqual([name]);
    },
  );

  it('names each command once', () => {
    const names = OWN_COMMAND_REGISTRARS.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
  });
});
