import type { Command } from 'commander';
import type { CliIo } from './cli-io';
import type { CommandContext } from './command-context';

/** What {@link CommandRegistrar}s get from {@link buildProgram} (program.ts). */
export interface RegistrarSetup {
  /** Where the program writes (already redacting). */
  readonly io: CliIo;
  /**
   * The context of the command an action runs for. Options are read with optsWithGlobals(): a
   * parent's option (`pools --json`, `--home`) given after a subcommand name is parsed by the
   * parent, and still belongs to the subcommand.
   */
  readonly contextOf: (command: Command) => CommandContext;
  /** Runs a whole command line (run-cli.ts's `runCli`); only the demo uses it. */
  readonly runCli?: (argv: readonly string[], io: CliIo) => Promise<number>;
  /** `--json` is on the command line (usage-json.ts `wantsJson`). */
  readonly json?: boolean;
}

/**
 * Defines one top-level command and its subcommands on the program. Its actions import their
 * command module lazily (`await import('./x-command')`), so a command line loads only what it runs.
 */
export type CommandRegistrar = (program: Command, setup: RegistrarSetup) => void;
