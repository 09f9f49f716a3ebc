import type { Command } from 'commander';
import type { RegistrarSetup } from '../cli/command-registrar';
import { examples } from '../output/help-examples';

/** Registers `bullswarm assignments`: what is in flight now. */
export function registerAssignmentsCommand(program: Command, { contextOf }: RegistrarSetup): void {
  program
    .command('assignments')
    .description('what is in flight now, across every bullswarm process on this machine')
    .option('--json', 'print the in-flight entries as JSON')
    .addHelpText('after', examples('bullswarm assignments', 'bullswarm assignments --json'))
    .action(async (_options, command: Command) => {
      const { assignmentsCommand } = await import('./assignments-command');
      await assignmentsCommand(contextOf(command), command.optsWithGlobals());
    });
}
