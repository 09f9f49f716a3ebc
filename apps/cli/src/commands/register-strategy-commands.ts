import { type Command, Option } from 'commander';
import type { RegistrarSetup } from '../cli/command-registrar';
import { examples } from '../output/help-examples';

/**
 * Registers `bullswarm strategy` (the table) and its subcommands: assign, unassign, apply, set-
 * subscription.
 */
export function registerStrategyCommands(program: Command, { contextOf }: RegistrarSetup): void {
  const strategy = program
    .command('strategy')
    .description(
      'per pool and tier: model, recorded wall time, stall threshold, spend rates; and tier assignments',
    )
    .option('--json', 'print the strategy as JSON')
    .addHelpText(
      'after',
      examples('bullswarm strategy', 'bullswarm strategy assign high --pool claude-code:acme --model opus'),
    )
    .action(async (_options, command: Command) => {
      const { strategyShowCommand } = await import('./strategy-command');
      await strategyShowCommand(contextOf(command), command.optsWithGlobals());
    });

  strategy
    .command('assign')
    .description(
      "prefer one pool for a tier (a preference among selectable pools, never a bypass); sets the pool's model for the tier",
    )
    .argument('<tier>', 'effort tier, e.g. high')
    .requiredOption('--pool <pool>', 'pool id or label')
    .requiredOption('--model <model>', "a model from the pool connector's allow-list for the tier")
    .option('--json', 'print the assignment as JSON')
    .addHelpText('after', examples('bullswarm strategy assign high --pool claude-code:acme --model opus'))
    .action(async (tier: string, _options, command: Command) => {
      const { strategyAssignCommand } = await import('./strategy-command');
      await strategyAssignCommand(contextOf(command), tier, command.optsWithGlobals());
    });

  strategy
    .command('unassign')
    .description("remove a tier's assignment (the tier is then picked by surplus)")
    .argument('<tier>', 'effort tier')
    .option('--json', 'print the removed assignment as JSON')
    .addHelpText('after', examples('bullswarm strategy unassign high'))
    .action(async (tier: string, _options, command: Command) => {
      const { strategyUnassignCommand } = await import('./strategy-command');
      await strategyUnassignCommand(contextOf(command), tier, command.optsWithGlobals());
    });

  strategy
    .command('apply')
    .description("set each pool's model per tier to its connector default (pins nothing)")
    .option('--json', 'print the models set as JSON')
    .addHelpText('after', examples('bullswarm strategy apply'))
    .action(async (_options, command: Command) => {
      const { strategyApplyCommand } = await import('./strategy-command');
      await strategyApplyCommand(contextOf(command), command.optsWithGlobals());
    });

  strategy
    .command('set-subscription')
    .description('override the pacing window a connector declares for one pool')
    .argument('<pool>', 'pool id or label')
    .addOption(
      new Option('--quota-window <window>', 'the window pace is computed from')
        .choices(['weekly', 'monthly'])
        .makeOptionMandatory(),
    )
    .option('--resets-at <iso>', 'when that window ends, for a provider that reports usage but no reset')
    .option('--json', 'print the changed pool as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm strategy set-subscription grok --quota-window monthly --resets-at 2026-12-01T00:00:00Z',
      ),
    )
    .action(async (ref: string, _options, command: Command) => {
      const { strategySetSubscriptionCommand } = await import('./strategy-command');
      await strategySetSubscriptionCommand(contextOf(command), ref, command.optsWithGlobals());
    });
}
