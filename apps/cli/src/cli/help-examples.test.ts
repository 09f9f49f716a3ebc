import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './cli-io';
import { buildProgram } from './program';

/** Every command of the tree, as its path after `bullswarm` (`pools`, `swarm plan status`, …). */
function commandPaths(command: Command, prefix: readonly string[] = []): [string, Command][] {
  return command.commands.flatMap((child) => {
    const path = [...prefix, child.name()];
    return [[path.join(' '), child] as [string, Command], ...commandPaths(child, path)];
  });
}

/** The whole `--help` of one command, as `bullswarm <path> --help` prints it (after-help text too). */
function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk), writeErr: () => {} });
  command.outputHelp();
  return text;
}

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
const program = buildProgram(io);
const paths = commandPaths(program);

// apps/cli/README.md promises an Examples block in every command's --help.
describe('every command’s --help has examples', () => {
  it('walks the whole tree (top-level commands, groups and their subcommands)', () => {
    const names = paths.map(([path]) => path);
    for (const expected of [
      'pools',
      'meters',
      'meters set',
      'workflow goal',
      'plan status',
      'check-output-schema',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it.each(paths)('bullswarm %s --help ends with examples of that command', (path, command) => {
    const help = helpOf(command);
    const block = /\nExamples:\n((?: {2}\$ .*\n?)+)/.exec(help)?.[1];
    expect(block, `bullswarm ${path} --help has no Examples: block`).toBeDefined();
    // `bullswarm [global options] <path> …`, e.g. `bullswarm --home ~/.bullswarm-work mcp`.
    const runsIt = new RegExp(`\\bbullswarm(?: --?[\\w-]+(?: [^-\\s]\\S*)?)* ${path}(?: |$)`, 'm');
    expect(
      runsIt.test(block!),
      `no example in bullswarm ${path} --help runs bullswarm ${path}:\n${block}`,
    ).toBe(true);
  });
});
