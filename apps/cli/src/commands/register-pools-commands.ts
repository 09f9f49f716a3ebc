import type { Command } from 'commander';
import type { RegistrarSetup } from '../cli/command-registrar';
import { examples } from '../output/help-examples';
import { collect } from '../parse/parse-options';

/**
 * Registers `bullswarm pools` (the list) and its subcommands: reserve, add, remove, enable, disable,
 * label.
 */
export function registerPoolsCommands(program: Command, { contextOf }: RegistrarSetup): void {
  const pools = program
    .command('pools')
    .description('every pool with its meter, pace, load and any spent window')
    .option('--json', 'print the same numbers per pool as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm pools',
        'bullswarm pools --json',
        'bullswarm pools add claude-code:work --label work',
      ),
    )
    .action(async (_options, command: Command) => {
      const { poolsListCommand } = await import('./pools-command');
      await poolsListCommand(contextOf(command), command.optsWithGlobals());
    });

  pools
    .command('reserve')
    .description(
      'keep a share of a window for yourself: routing treats the window as spent at 100 − reserve % used (a pin may still use it)',
    )
    .argument('<pool>', 'pool id or label')
    .option('--5h <pct>', 'the share of the 5-hour window to keep, 0–90 (0 drops it)')
    .option('--weekly <pct>', 'the share of the weekly window to keep, 0–90 (0 drops it)')
    .option('--monthly <pct>', 'the share of the monthly window to keep, 0–90 (0 drops it)')
    .option('--clear', 'drop every reserve of the pool')
    .option('--json', 'print the pool and its reserves as JSON')
    .addHelpText(
      'after',
      '\nWithout a window flag it prints what the pool keeps. Whole numbers or one decimal (12.5).\n' +
        examples(
          'bullswarm pools reserve claude-code:acme --5h 20 --weekly 15',
          'bullswarm pools reserve gemini --monthly 10',
          'bullswarm pools reserve claude-code:acme --weekly 0',
          'bullswarm pools reserve claude-code:acme --clear',
          'bullswarm pools reserve claude-code:acme --json',
        ),
    )
    .action(async (ref: string, _options, command: Command) => {
      const { poolsReserveCommand } = await import('./pools-reserve-command');
      await poolsReserveCommand(contextOf(command), ref, command.optsWithGlobals());
    });

  pools
    .command('add')
    .description('add a pool: a connector, optionally under a named account')
    .argument('<connector[:account]>', 'e.g. claude-code, or codex:work')
    .option('--label <label>', 'a display label (no spaces, not another pool id)')
    .option('--env <K=V>', 'account environment for the agent CLI (repeatable)', collect)
    .option('--command <path>', "the agent CLI's path or name, overriding the connector's")
    .option('--disabled', 'add the pool disabled')
    .option(
      '--model <tier=model>',
      'the model for a tier, from the connector allow-list; <tier>=none for no model (repeatable)',
      collect,
    )
    .option('--json', 'print the added pool as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm pools add claude-code',
        'bullswarm pools add claude-code:acme --env CLAUDE_CONFIG_DIR=$HOME/.claude-acme --label acme',
        'bullswarm pools add codex:work --model high=gpt-6.2-astra --model low=none',
      ),
    )
    .action(async (spec: string, _options, command: Command) => {
      const { poolsAddCommand } = await import('./pools-command');
      await poolsAddCommand(contextOf(command), spec, command.optsWithGlobals());
    });

  pools
    .command('remove')
    .description('remove a pool (and its tier assignments and label; its history is kept)')
    .argument('<pool>', 'pool id or label')
    .option('--json', 'print the removed pool as JSON')
    .addHelpText('after', examples('bullswarm pools remove codex:work'))
    .action(async (ref: string, _options, command: Command) => {
      const { poolsRemoveCommand } = await import('./pools-command');
      await poolsRemoveCommand(contextOf(command), ref, command.optsWithGlobals());
    });

  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    pools
      .command(name)
      .description(enabled ? 'make a pool a candidate again' : 'keep a pool out of every pick')
      .argument('<pool>', 'pool id or label')
      .option('--json', 'print the changed pool as JSON')
      .addHelpText('after', examples(`bullswarm pools ${name} codex`))
      .action(async (ref: string, _options, command: Command) => {
        const { poolsEnableCommand } = await import('./pools-command');
        await poolsEnableCommand(contextOf(command), ref, enabled, command.optsWithGlobals());
      });
  }

  pools
    .command('label')
    .description('set, clear or list pool display labels (commands accept a label or an id)')
    .argument('[pool]', 'pool id or current label')
    .argument('[label]', 'the new label: no spaces, not another pool id')
    .option('--list', 'list every label')
    .option('--clear', "remove the pool's label")
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm pools label claude-code:acme acme',
        'bullswarm pools label --list',
        'bullswarm pools label claude-code:acme --clear',
      ),
    )
    .action(async (ref: string | undefined, label: string | undefined, _options, command: Command) => {
      const { poolsLabelCommand } = await import('./pools-command');
      await poolsLabelCommand(contextOf(command), ref, label, command.optsWithGlobals());
    });
}
