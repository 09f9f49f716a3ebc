import type { Command } from 'commander';
import type { RegistrarSetup } from '../cli/command-registrar';
import { examples } from '../output/help-examples';

/** Registers `bullswarm store`: status and migrate of the home's store (SQLite, or a shared Postgres). */
export function registerStoreCommand(program: Command, { contextOf }: RegistrarSetup): void {
  const store = program
    .command('store')
    .description(
      "the home's store: the local bullswarm.db, or the Postgres database that BULLSWARM_STORE_URL (or config.storeUrl) names",
    )
    .addHelpText(
      'after',
      examples(
        'bullswarm store status',
        'bullswarm store status --json',
        'BULLSWARM_STORE_URL=postgres://bullswarm@db.example:5432/bullswarm bullswarm store migrate',
      ),
    );

  store
    .command('status')
    .description(
      "which store this home uses, this machine's host id, and the schema versions (applies nothing)",
    )
    .option('--json', 'print the status as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm store status',
        'bullswarm store status --json',
        'BULLSWARM_STORE_URL=postgres://bullswarm@db.example:5432/bullswarm bullswarm store status',
      ),
    )
    .action(async (_options, command: Command) => {
      const { storeStatusCommand } = await import('./store-command');
      await storeStatusCommand(contextOf(command), command.optsWithGlobals());
    });

  store
    .command('migrate')
    .description(
      'create the store or bring its tables up to date (once across every process and host; what any command does on first use)',
    )
    .option('--json', 'print what was applied as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm store migrate',
        'BULLSWARM_STORE_URL=postgres://bullswarm@db.example:5432/bullswarm bullswarm store migrate --json',
      ),
    )
    .action(async (_options, command: Command) => {
      const { storeMigrateCommand } = await import('./store-command');
      await storeMigrateCommand(contextOf(command), command.optsWithGlobals());
    });
}
