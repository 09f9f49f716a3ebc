import type { Command } from 'commander';
import type { RegistrarSetup } from '../cli/command-registrar';
import { examples } from '../output/help-examples';

/**
 * Registers `bullswarm demo`: routing at work on simulated pools (runs the real commands through
 * `runCli`).
 */
export function registerDemoCommand(program: Command, { contextOf, runCli }: RegistrarSetup): void {
  program
    .command('demo')
    .description('see routing at work on simulated pools: pools, a dry run, a real run, and a free chore')
    .option('--keep', 'keep the demo home and print where it is')
    .addHelpText(
      'after',
      '\nThe demo uses a temporary home, removed at the end unless --keep. With --home, the directory must be\nnew, empty or an earlier demo home (the demo writes its own pools there), and it is kept.\n' +
        examples('bullswarm demo', 'bullswarm demo --home /tmp/bs-demo --keep'),
    )
    .action(async (_options, command: Command) => {
      const { demoCommand } = await import('./demo-command');
      if (runCli === undefined)
        throw new Error('bullswarm internal error: demo needs buildProgram({ runCli })');
      await demoCommand(contextOf(command), command.optsWithGlobals(), runCli);
    });
}
