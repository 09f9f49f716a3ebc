import type { Command } from 'commander';
import { examples } from '../../output/help-examples';
import { AS, type ContextOf, PLAN } from './swarm-options';

/** Registers lead and its subcommands: claim, show, resolve, handover, takeover, release, designate, check, fence. */
export function registerLeadCommands(program: Command, contextOf: ContextOf): void {
  const lead = program
    .command('lead')
    .description('lead records: claim, show, resolve, handover, takeover, release, fencing')
    .addHelpText(
      'after',
      examples(
        'bullswarm lead claim --plan release-2 --succession deputy',
        'bullswarm lead show --plan release-2',
        'bullswarm lead handover deputy --plan release-2 --as lead-1 --epoch 1',
      ),
    );
  lead
    .command('claim')
    .description('claim a plan before launching any lane (refresh it with --lanes as lanes start)')
    .option(...PLAN)
    .option(
      '--succession <A,B>',
      'who takes over first, in order (then the designate, the lanes, agents on this host)',
    )
    .option('--lanes <A,B>', 'lanes to add to the record')
    .option(...AS)
    .option('--json', 'print the record as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm lead claim --plan release-2 --succession deputy,lane-a',
        'bullswarm lead claim --plan release-2 --lanes lane-b',
      ),
    )
    .action(async (_options, command: Command) => {
      const { leadClaimCommand } = await import('./lead-command');
      await leadClaimCommand(contextOf(command), command.optsWithGlobals());
    });
  lead
    .command('show')
    .description('the lead record and every change of it')
    .option(...PLAN)
    .option('--json', 'print the record and its history as JSON')
    .addHelpText(
      'after',
      "\nShows the record, its history, the takeover order and the newest lead packet's lane table, release order and\npending merges.\n" +
        examples(
          'bullswarm lead show --plan release-2',
          'bullswarm lead show --plan myrepo/release-2 --json',
        ),
    )
    .action(async (_options, command: Command) => {
      const { leadShowCommand } = await import('./lead-command');
      await leadShowCommand(contextOf(command), command.optsWithGlobals());
    });
  lead
    .command('resolve')
    .description('print the current lead’s address (what the address `lead` resolves to)')
    .option(...PLAN)
    .addHelpText('after', examples('bullswarm lead resolve --plan release-2'))
    .action(async (_options, command: Command) => {
      const { leadResolveCommand } = await import('./lead-command');
      await leadResolveCommand(contextOf(command), command.optsWithGlobals());
    });
  lead
    .command('handover')
    .description('hand the lead over (epoch + 1, every lane notified)')
    .argument('<addr>', 'the new lead')
    .option(...PLAN)
    .option(...AS)
    .option('--epoch <n>', 'the epoch you hold (refused if it is not current)')
    .option('--json', 'print the record as JSON')
    .addHelpText('after', examples('bullswarm lead handover deputy --plan release-2 --as lead-1 --epoch 1'))
    .action(async (addr: string, _options, command: Command) => {
      const { leadHandoverCommand } = await import('./lead-command');
      await leadHandoverCommand(contextOf(command), addr, command.optsWithGlobals());
    });
  lead
    .command('takeover')
    .description(
      'take the lead when it is unreachable: only the first reachable entry of the effective succession (lead show lists it); epoch + 1',
    )
    .option(...PLAN)
    .option(...AS)
    .option('--epoch <n>', 'the epoch you read (compare-and-set; default the current one)')
    .option(
      '--reason <why>',
      'unreachable (checked, default), ask_timeout (checked: two asks to the lead at its epoch unanswered past their timeout) or usage_limit (asserted and recorded as such)',
    )
    .option('--json', 'print the record as JSON')
    .addHelpText(
      'after',
      "\nask_timeout is checked from the notices: two asks to the lead at its epoch (notify lead --ask) unanswered past\ntheir timeout ($BULLSWARM_ASK_TIMEOUT_SEC, 1800 s, or the ask's --timeout).\n" +
        examples(
          'bullswarm lead takeover --plan release-2 --as deputy',
          'bullswarm lead takeover --plan release-2 --as deputy --reason ask_timeout --epoch 1',
        ),
    )
    .action(async (_options, command: Command) => {
      const { leadTakeoverCommand } = await import('./lead-command');
      await leadTakeoverCommand(contextOf(command), command.optsWithGlobals());
    });
  lead
    .command('release')
    .description('release the plan when it is done (current lead only; its leases for the plan go with it)')
    .option(...PLAN)
    .option(...AS)
    .option('--epoch <n>', 'the epoch you hold')
    .addHelpText('after', examples('bullswarm lead release --plan release-2 --as lead-2 --epoch 2'))
    .action(async (_options, command: Command) => {
      const { leadReleaseCommand } = await import('./lead-command');
      await leadReleaseCommand(contextOf(command), command.optsWithGlobals());
    });
  lead
    .command('designate')
    .description('name a successor-designate (at low capacity): first in the succession list')
    .argument('<addr>', 'the successor-designate')
    .option(...PLAN)
    .option(...AS)
    .option('--epoch <n>', 'the epoch you hold')
    .addHelpText('after', examples('bullswarm lead designate deputy --plan release-2 --as lead-1'))
    .action(async (addr: string, _options, command: Command) => {
      const { leadDesignateCommand } = await import('./lead-command');
      await leadDesignateCommand(contextOf(command), addr, command.optsWithGlobals());
    });
  lead
    .command('check')
    .description(
      'a returning lead checks it still leads at its epoch (exit 1 and step down when a higher epoch exists)',
    )
    .option(...PLAN)
    .requiredOption('--epoch <n>', 'the epoch you held')
    .option(...AS)
    .option('--json', 'print the check as JSON')
    .addHelpText('after', examples('bullswarm lead check --plan release-2 --epoch 1 --as lead-1'))
    .action(async (_options, command: Command) => {
      const { leadCheckCommand } = await import('./lead-command');
      await leadCheckCommand(contextOf(command), command.optsWithGlobals());
    });
  lead
    .command('fence')
    .description(
      'run a merge, tag or release command only when the epoch is current and the remote has not moved past the checkout (exit code: the command’s)',
    )
    .argument('<command...>', 'the command after --')
    .option(...PLAN)
    .requiredOption('--epoch <n>', 'the epoch you hold')
    .option('--as <addr>', 'the lead’s address (checked against the record when given)')
    .option(
      '--remote <name>',
      'the remote read first (default: the one pushed to, the branch’s upstream, origin, or the only one)',
    )
    .addHelpText(
      'after',
      '\nBefore the command runs the remote is read (git ls-remote, never prompting, at most\n' +
        '$BULLSWARM_REMOTE_TIMEOUT_SEC, 60 s): the branch and any branch pushed must be contained in the\n' +
        'checkout, a tag made or pushed must not be on the remote already; else exit 1 and nothing runs.\n' +
        examples(
          'bullswarm lead fence --plan release-2 --epoch 3 --as lead-2 -- git merge --no-ff lane/api',
          'bullswarm lead fence --plan release-2 --epoch 3 --as lead-2 -- git tag -a v2.0.0 -m v2.0.0',
          'bullswarm lead fence --plan release-2 --epoch 3 --remote upstream -- git push upstream main v2.0.0',
        ),
    )
    .action(async (commandLine: string[], _options, command: Command) => {
      const { leadFenceCommand } = await import('./lead-command');
      await leadFenceCommand(contextOf(command), commandLine, command.opts());
    });
}
