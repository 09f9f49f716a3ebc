import type { Command } from 'commander';
import type { RegistrarSetup } from '../cli/command-registrar';
import { examples } from '../output/help-examples';

/** Registers `bullswarm connectors`: add, remove, list. */
export function registerConnectorsCommands(program: Command, { contextOf }: RegistrarSetup): void {
  const connectors = program
    .command('connectors')
    .description(
      'third-party connector packages this home loads (kept in $BULLSWARM_HOME/state.json config.connectors)',
    )
    .addHelpText(
      'after',
      examples(
        'bullswarm connectors add bullswarm-connector-foo',
        'bullswarm connectors add ./path/to/bullswarm-connector-foo',
        'bullswarm connectors list',
      ),
    );

  connectors
    .command('add')
    .description(
      'resolve a connector package (or connector.json) from here, check it loads, and store where it is, so every command finds it from any directory',
    )
    .argument(
      '<package-or-path>',
      'an installed bullswarm-connector-* package, its directory, or a connector.json',
    )
    .option('--json', 'print the stored entry as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm connectors add bullswarm-connector-foo',
        'bullswarm connectors add ./node_modules/@acme/bullswarm-connector-foo',
        'bullswarm connectors add ./my-connector/connector.json',
      ),
    )
    .action(async (what: string, _options, command: Command) => {
      const { connectorsAddCommand } = await import('./connectors-command');
      await connectorsAddCommand(contextOf(command), what, command.optsWithGlobals());
    });

  connectors
    .command('remove')
    .description('stop loading a configured connector (its pools stay)')
    .argument('<entry>', 'the connector id, or the package name or path as `connectors list` shows it')
    .option('--json', 'print the removed entries as JSON')
    .addHelpText(
      'after',
      examples('bullswarm connectors remove bullswarm-connector-foo', 'bullswarm connectors remove foo'),
    )
    .action(async (what: string, _options, command: Command) => {
      const { connectorsRemoveCommand } = await import('./connectors-command');
      await connectorsRemoveCommand(contextOf(command), what, command.optsWithGlobals());
    });

  connectors
    .command('list')
    .description('every configured connector entry, and whether it loads')
    .option('--json', 'print the entries as JSON')
    .addHelpText('after', examples('bullswarm connectors list', 'bullswarm connectors list --json'))
    .action(async (_options, command: Command) => {
      const { connectorsListCommand } = await import('./connectors-command');
      await connectorsListCommand(contextOf(command), command.optsWithGlobals());
    });
}
