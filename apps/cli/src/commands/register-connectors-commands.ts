import type { Command } from 'commander';
import type { RegistrarSetup } from '../cli/command-registrar';
import { examples } from '../output/help-examples';

/** Registers `bullswarm connectors`: add, remove, list, init. */
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
        'bullswarm connectors init bullswarm-connector-foo',
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

  connectors
    .command('init')
    .description(
      'write a new connector package into a new or empty directory: connector.json, a parser, tsconfig, tsup build, vitest tests with the conformance suite',
    )
    .argument('<dir>', 'the package directory, e.g. bullswarm-connector-my-agent')
    .option('--id <id>', 'the connector id (default: the directory name without "bullswarm-connector-")')
    .option('--json', 'print the package written (directory, name, id, files) as JSON')
    .addHelpText(
      'after',
      '\nThe package depends on @bullswarm/connectors by version; npm test runs its unit tests and the\n' +
        'conformance suite of @bullswarm/connectors/test on its captured samples.\n' +
        examples(
          'bullswarm connectors init bullswarm-connector-my-agent',
          'bullswarm connectors init ./acme --id acme',
          'cd bullswarm-connector-my-agent && npm install && npm test && bullswarm connectors add .',
        ),
    )
    .action(async (dir: string, _options, command: Command) => {
      const { connectorsInitCommand } = await import('./connectors-init-command');
      await connectorsInitCommand(contextOf(command), dir, command.optsWithGlobals());
    });
}
