import type { Command } from 'commander';
import type { RegistrarSetup } from '../cli/command-registrar';
import { examples } from '../output/help-examples';

/** Registers `bullswarm setup`: find the agent CLIs and create their pools. */
export function registerSetupCommand(program: Command, { contextOf }: RegistrarSetup): void {
  program
    .command('setup')
    .description('find the agent CLIs on PATH and their accounts, and create their pools')
    .option('--yes', 'create the pools without asking')
    .option('--strategy', "also set each pool's model per tier to its connector default (as strategy apply)")
    .option('--json', 'print the plan and what was created as JSON')
    .addHelpText('after', examples('bullswarm setup', 'bullswarm setup --yes --strategy'))
    .action(async (_options, command: Command) => {
      const { setupCommand } = await import('./setup-command');
      await setupCommand(contextOf(command), command.optsWithGlobals());
    });
}
