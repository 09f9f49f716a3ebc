import type { Command } from 'commander';
import { examples } from '../../output/help-examples';
import { collect } from '../../parse/parse-options';
import { AS, type ContextOf, PLAN } from './swarm-options';

/** Registers notify, inbox and handoff (write, accept, launch, show). */
export function registerNoticeHandoffCommands(program: Command, contextOf: ContextOf): void {
  program
    .command('notify')
    .description(
      'a one-way notice stored for an agent (or `lead`); nothing polls: it is read at the recipient’s turn boundary',
    )
    .argument('<addr>', 'the recipient, or lead')
    .argument('<text...>', 'the notice')
    .option(...PLAN)
    .option(...AS)
    .option('--ask', 'a question (lane to lane, or to the lead): it waits for a reply from its recipient')
    .option(
      '--timeout <sec>',
      'how long the ask waits for that reply (default $BULLSWARM_ASK_TIMEOUT_SEC, else 1800)',
    )
    .option('--re <id>', 'a reply to the ask with this notice id')
    .option('--json', 'print the notice as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm notify lead --plan release-2 "done capacity=ok 64% @work1"',
        'bullswarm notify lane-a --ask "exact flag name?"',
        'bullswarm notify lead --plan release-2 --ask --timeout 600 "which branch is the base?"',
      ),
    )
    .action(async (to: string, text: string[], _options, command: Command) => {
      const { notifyCommand } = await import('./notice-command');
      await notifyCommand(contextOf(command), to, text, command.optsWithGlobals());
    });
  program
    .command('inbox')
    .description('unread notices, oldest first, read once; their text is data')
    .option(...AS)
    .option('--json', 'print the notices as JSON')
    .addHelpText('after', examples('bullswarm inbox', 'bullswarm inbox --as lane-a --json'))
    .action(async (_options, command: Command) => {
      const { inboxCommand } = await import('./notice-command');
      await inboxCommand(contextOf(command), command.optsWithGlobals());
    });

  const handoff = program
    .command('handoff')
    .description('handoff packets (dwp-handoff/v1): write, accept, launch, show')
    .addHelpText(
      'after',
      examples(
        'bullswarm handoff write --plan release-2 --task cli --step write --reason capacity_critical --not-verified "cli gate"',
        'bullswarm handoff accept plans/release-2/analysis_results/handoff/cli-20261201T120000Z-lane-b.json --as cli-2',
        'bullswarm handoff show plans/release-2/analysis_results/handoff/cli-20261201T120000Z-lane-b.json',
      ),
    );
  handoff
    .command('write')
    .description(
      'write a packet under the plan’s analysis_results/handoff/ (0600), where the work is read from git; refused if it carries a secret',
    )
    .option(...PLAN)
    .requiredOption('--task <task>', 'the task (or lead for a lead packet)')
    .requiredOption('--step <step>', 'the step in flight')
    .requiredOption(
      '--reason <reason>',
      'capacity_critical, capacity_low, context_pressure, usage_limit or lead_handover',
    )
    .option('--content <file>', 'JSON with done, verified, notVerified, next, openAsks, decisions')
    .option('--done <what>', 'done, optionally " :: <evidence>,<paths>" (repeatable)', collect)
    .option('--verified <what>', 'verified, optionally " :: <evidence>" (repeatable)', collect)
    .option('--not-verified <what>', 'not verified: the successor re-runs it (repeatable)', collect)
    .option('--next <step>', 'the next steps in order (repeatable)', collect)
    .option('--ask <addr=text>', 'an open ask (repeatable)', collect)
    .option('--decision <text>', 'a decision taken (repeatable)', collect)
    .option('--release-order <a,b>', 'a lead packet: the order the lanes’ tasks are merged and released')
    .option(
      '--pending-merge <branch[:into]>',
      'a lead packet: a merge not done yet (into defaults to the checkout’s branch; repeatable)',
      collect,
    )
    .option('--cwd <dir>', 'the checkout (default the current directory)')
    .option(...AS)
    .option('--no-notify', 'do not send `handoff <path>` to the lead')
    .option('--json', 'print the packet as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm handoff write --plan release-2 --task cli --step write --reason capacity_critical --done "part 1 :: src/cli.ts" --not-verified "cli gate" --next "write part 2"',
        'bullswarm handoff write --plan release-2 --task lead --step merge --reason lead_handover --release-order api,cli,docs --pending-merge lane/api:main --pending-merge lane/cli:main',
      ),
    )
    .action(async (_options, command: Command) => {
      const { handoffWriteCommand } = await import('./handoff-command');
      await handoffWriteCommand(contextOf(command), command.optsWithGlobals());
    });
  handoff
    .command('accept')
    .description(
      'accept a packet: plan, contract, branch, head and uncommitted paths must match the checkout (nothing recorded otherwise)',
    )
    .argument('<packet>', 'the packet path')
    .option(...AS)
    .option('--cwd <dir>', 'the checkout (default the packet’s)')
    .option('--json', 'print the acceptance as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm handoff accept plans/release-2/analysis_results/handoff/cli-20261201T120000Z-lane-b.json --as cli-2',
        'bullswarm handoff accept plans/release-2/analysis_results/handoff/lead-20261201T130000Z-lead-1.json --as deputy --json',
      ),
    )
    .action(async (packet: string, _options, command: Command) => {
      const { handoffAcceptCommand } = await import('./handoff-command');
      await handoffAcceptCommand(contextOf(command), packet, command.optsWithGlobals());
    });
  handoff
    .command('show')
    .description(
      'a packet for people: where the work is, what is done and not verified, next steps, and a lead packet’s lane table, release order and pending merges',
    )
    .argument('<packet>', 'the packet path')
    .option('--json', 'print the packet and its record as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm handoff show plans/release-2/analysis_results/handoff/lead-20261201T130000Z-lead-1.json',
        'bullswarm handoff show plans/release-2/analysis_results/handoff/cli-20261201T120000Z-lane-b.json --json',
      ),
    )
    .action(async (packet: string, _options, command: Command) => {
      const { handoffShowCommand } = await import('./handoff-command');
      await handoffShowCommand(contextOf(command), packet, command.optsWithGlobals());
    });
  handoff
    .command('launch')
    .description(
      'pick an account (not the spent one; another vendor preferred), lease it, and start the successor through dispatch',
    )
    .argument('<packet>', 'the packet path')
    .option('--owner <lead>', 'the lead launching (default $BULLSWARM_AGENT)')
    .option('--to <addr>', 'the successor’s address (default <task>-<n>)')
    .option('--prompt <text>', 'more instructions appended to the resume brief')
    .option('--json', 'print the launch as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm handoff launch plans/release-2/analysis_results/handoff/cli-20261201T120000Z-lane-b.json --owner lead-1',
        'bullswarm handoff launch plans/release-2/analysis_results/handoff/cli-20261201T120000Z-lane-b.json --owner lead-1 --to cli-2 --prompt "finish part 2 first"',
      ),
    )
    .action(async (packet: string, _options, command: Command) => {
      const { handoffLaunchCommand } = await import('./handoff-command');
      await handoffLaunchCommand(contextOf(command), packet, command.optsWithGlobals());
    });
}
