import { Command } from 'commander';
import { registerSwarmCommands } from '../commands/swarm/register-swarm-commands';
import { registerWorkflowCommands } from '../commands/workflow/register-workflow-commands';
import { examples } from '../output/help-examples';
import { checkSettings } from './check-settings';
import type { CliIo } from './cli-io';
import { type CommandContext, createCommandContext, type GlobalOptions } from './command-context';
import type { RegistrarSetup } from './command-registrar';
import { OWN_COMMAND_REGISTRARS, OWN_COMMANDS } from './own-commands';

import { VERSION } from './version';

export { VERSION };

/** Options of {@link buildProgram}. */
export interface BuildProgramOptions {
  /**
   * The command word of the command line (launcher/choose-bundle.ts `commandWord`). When it names
   * one of {@link OWN_COMMANDS}, the swarm and workflow commands are not defined: commander
   * dispatches to the named command and never looks at its siblings (only the program's help and
   * its did-you-mean suggestions list them), and defining those ~40 commands is ~1.5 ms of a start.
   */
  readonly commandWord?: string;
  /**
   * Runs a whole command line (run-cli.ts's `runCli`, passed in by it): `demo` runs the real
   * commands through it. Injected, so this module and the demo never import run-cli (which
   * imports this one).
   */
  readonly runCli?: (argv: readonly string[], io: CliIo) => Promise<number>;
  /**
   * `--json` is on the command line (usage-json.ts `wantsJson`): a command whose `--json` promises
   * JSON on stdout prints its commander parse errors as JSON too.
   */
  readonly json?: boolean;
}

/**
 * The `bullswarm` program (commander): the global options, then every command of
 * own-commands.ts (one registrar file per top-level command, commands/register-*.ts), then the
 * swarm and workflow groups. Every action imports its command module lazily, so a command loads
 * only what it uses (startup time matters: `pools` runs in scripts and statuslines). Errors
 * propagate to the one try/catch in {@link runCli}.
 */
export function buildProgram(io: CliIo, options: BuildProgramOptions = {}): Command {
  const program = new Command('bullswarm');
  // Options are read with optsWithGlobals() (see RegistrarSetup.contextOf).
  const contextOf = (command: Command): CommandContext =>
    createCommandContext(io, command.optsWithGlobals() as GlobalOptions);

  program
    .description(
      'Route coding-agent tasks across every subscription you pay for, to the pool whose quota is most at risk of expiring unspent.',
    )
    .version(VERSION, '-V, --version', 'print the bullswarm version')
    .option('--home <dir>', 'the state home (default $BULLSWARM_HOME, else ~/.bullswarm)')
    .option('--debug', 'print stack traces on errors (and, in pools, why a meter could not be read)')
    .option(
      '--no-color',
      'never colour the output; else FORCE_COLOR (not empty) colours even a pipe, NO_COLOR (not empty) turns it off',
    )
    // Every command's --help lists these global options too (inherited by each .command()).
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text),
      writeErr: (text) => io.err(text),
      outputError: (text, write) => write(text),
    })
    .addHelpText(
      'after',
      examples(
        'bullswarm demo',
        'bullswarm setup --yes --strategy',
        'bullswarm pools',
        'bullswarm run --lane analyze "Explain the parser"',
      ),
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 success, 1 the task failed or hit a limit, 2 usage error or bad input.\n',
    );

  // Every BULLSWARM_* setting is checked once before any command acts (check-settings.ts).
  program.hook('preAction', (_program, action) => {
    let top = action;
    while (top.parent !== null && top.parent !== program) top = top.parent;
    return checkSettings(io.env, top.name());
  });

  const setup: RegistrarSetup = { io, contextOf, runCli: options.runCli, json: options.json };
  for (const [, register] of OWN_COMMAND_REGISTRARS) register(program, setup);

  // A command line naming one of the commands above needs none of those below (see commandWord).
  if (options.commandWord !== undefined && OWN_COMMANDS.has(options.commandWord)) return program;

  // ---- swarm (capacity, pick, lease, agent, lead, notify, inbox, handoff, …) -------------------
  registerSwarmCommands(program, contextOf);

  // ---- workflow (goal, validate, list, watch, show, resume, restart), check-output-schema -------
  registerWorkflowCommands(program, contextOf);

  return program;
}
