import type { Command } from 'commander';
import type { RegistrarSetup } from '../cli/command-registrar';
import { examples } from '../output/help-examples';

/** Registers `bullswarm dashboard`: the web pages. */
export function registerDashboardCommand(program: Command, { contextOf }: RegistrarSetup): void {
  program
    .command('dashboard')
    .description(
      'web pages for pools, runs, workflows and the swarm, live, on 127.0.0.1 with an access token',
    )
    .option('--port <n>', 'the port to listen on, 0 for any free one (default 7878)')
    .option(
      '--host <address>',
      'the address to listen on (default 127.0.0.1; anything else is reachable from the network)',
    )
    .option('--open', 'open the address in the desktop browser')
    .addHelpText(
      'after',
      '\nEvery request needs the token in the printed address (the page keeps it in a cookie); Ctrl-C stops it.\n' +
        examples(
          'bullswarm dashboard',
          'bullswarm dashboard --port 0 --open',
          'bullswarm --home /tmp/bs-demo dashboard',
        ),
    )
    .action(async (_options, command: Command) => {
      const { dashboardCommand } = await import('./dashboard-command');
      await dashboardCommand(contextOf(command), command.optsWithGlobals());
    });
}
