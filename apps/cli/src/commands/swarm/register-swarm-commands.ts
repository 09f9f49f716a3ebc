import type { Command } from 'commander';
import type { CommandContext } from '../../cli/command-context';
import { examples } from '../../output/help-examples';
import { collect } from '../../parse/parse-options';

const AS = ['--as <addr>', 'the address this agent acts as (default $BULLSWARM_AGENT)'] as const;
const PLAN = [
  '--plan <P>',
  'the plan: <id>, or <repo>/<id> to tell plans of two repositories apart (default $BULLSWARM_PLAN)',
] as const;

/**
 * Registers the swarm commands on the program: capacity, pick, lease, agent, lead, notify, inbox,
 * handoff, escalate, escalation, task, plan, swarm drill. Every action imports its module lazily.
 */
export function registerSwarmCommands(
  program: Command,
  contextOf: (command: Command) => CommandContext,
): void {
  program
    .command('capacity')
    .description(
      "the capacity verdict (ok, low, critical, unknown) of this agent's pool or a named one, and the capacity line agents end their messages with",
    )
    .option(
      '--self',
      'the pool this agent runs on ($BULLSWARM_POOL; unknown outside a bullswarm launch) [default]',
    )
    .option('--pool <pool>', 'a pool id or label')
    .option(...PLAN)
    .option('--json', 'print the verdict, numbers, thresholds and cap as JSON')
    .addHelpText(
      'after',
      "\nThresholds: low at 25%, critical at 10% of the binding window's free share (BULLSWARM_CAPACITY_LOW /\n" +
        'BULLSWARM_CAPACITY_CRITICAL, or AGENTKIT_CAPACITY_*). A cap (BULLSWARM_CAPACITY_CAP=@<pool>=8, comma-separated;\n' +
        'or AGENTKIT_CAPACITY_CAP) only lowers a reading. Readings come from a meter cache kept 300 s. No meter, a reading\n' +
        'older than BULLSWARM_CAPACITY_MAX_AGE_SEC (900), or no $BULLSWARM_POOL give unknown, never ok.\n' +
        examples('bullswarm capacity --self', 'bullswarm capacity --pool work1 --json'),
    )
    .action(async (_options, command: Command) => {
      const { capacityCommand } = await import('./capacity-command');
      await capacityCommand(contextOf(command), command.optsWithGlobals());
    });

  program
    .command('pick')
    .description(
      "rank the declared accounts for a kind of work by pacing, leaving out leased accounts and the lead's own",
    )
    .argument('<kind>', 'a connector id, a provider family, or any')
    .requiredOption('--owner <lead>', 'the lead the account is for')
    .option('--exclude <pool>', 'leave an account out, e.g. @work1 (repeatable)', collect)
    .option(...PLAN)
    .option('--lane <lane>', 'analyze, build or chore (default build)')
    .option('--effort <tier>', 'the effort tier (default: the lane default)')
    .option('--long', 'a long task: accounts of known capacity first (unknown capacity last)')
    .option('--json', 'print the ranking as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm pick any --owner lead-1',
        'bullswarm pick codex --owner lead-1 --exclude @work1 --json',
        'bullswarm pick any --owner lead-1 --long',
      ),
    )
    .action(async (kind: string, _options, command: Command) => {
      const { pickCommand } = await import('./pick-command');
      await pickCommand(contextOf(command), kind, command.optsWithGlobals());
    });

  const lease = program
    .command('lease')
    .description(
      'hold an account for one lane (one lane at a time; never the lead’s own account); lease release / lease list',
    )
    .argument('[pool]', 'a pool id or label, e.g. @work1')
    .option('--to <addr>', 'the lane that holds it')
    .option('--owner <lead>', 'the lead granting it')
    .option(...PLAN)
    .option('--task <task>', 'the task it is for')
    .option(
      '--ttl <sec>',
      'seconds it lives past its last renewal (default $BULLSWARM_LEASE_TTL_SEC, else 1800)',
    )
    .option('--json', 'print the lease as JSON')
    .addHelpText(
      'after',
      '\nA lease is renewed by its holder’s `bullswarm agent heartbeat` and released at its expiry if the holder is gone.\n' +
        examples(
          'bullswarm lease @work2 --to lane-a --owner lead-1',
          'bullswarm lease release @work2 --as lead-1',
          'bullswarm lease list --json',
        ),
    )
    .action(async (pool: string | undefined, _options, command: Command) => {
      const options = command.opts() as { to?: string; owner?: string };
      const { CliUsageError } = await import('../../cli/cli-errors');
      if (pool === undefined || options.to === undefined || options.owner === undefined) {
        throw new CliUsageError({
          message:
            'lease needs <pool>, --to <addr> and --owner <lead> (or use `lease release <pool> --as <addr>` / `lease list`)',
          flag: pool === undefined ? '<pool>' : options.to === undefined ? '--to' : '--owner',
        });
      }
      const { leaseCommand } = await import('./lease-command');
      await leaseCommand(contextOf(command), pool, command.optsWithGlobals());
    });
  lease
    .command('release')
    .description('release a lease (by its holder or owner: --as, else $BULLSWARM_AGENT, is required)')
    .argument('<pool>', 'a pool id or label')
    .option(...AS)
    .action(async (pool: string, _options, command: Command) => {
      const { leaseReleaseCommand } = await import('./lease-command');
      await leaseReleaseCommand(contextOf(command), pool, command.opts());
    });
  lease
    .command('list')
    .description('active leases')
    .option('--json', 'print the leases as JSON')
    .action(async (_options, command: Command) => {
      const { leaseListCommand } = await import('./lease-command');
      await leaseListCommand(contextOf(command), command.optsWithGlobals());
    });

  const agent = program
    .command('agent')
    .description(
      'agent addresses and heartbeats; unreachable = never registered, deregistered, its process gone, or no heartbeat for $BULLSWARM_AGENT_STALE_SEC (900)',
    );
  agent
    .command('register')
    .description('register an address (default $BULLSWARM_AGENT) with a first heartbeat')
    .argument('[addr]', 'the address')
    .option('--pid <pid>', 'its process on this host (its death makes it unreachable)')
    .option('--pool <pool>', 'the account it runs on (default $BULLSWARM_POOL)')
    .option(...PLAN)
    .option('--json', 'print the agent as JSON')
    .addHelpText('after', examples('bullswarm agent register lane-a --pool @work2 --pid $$'))
    .action(async (addr: string | undefined, _options, command: Command) => {
      const { agentRegisterCommand } = await import('./agent-command');
      await agentRegisterCommand(contextOf(command), addr, command.optsWithGlobals());
    });
  agent
    .command('heartbeat')
    .description('alive now (at each turn boundary); renews the leases it holds')
    .argument('[addr]', 'the address (default $BULLSWARM_AGENT)')
    .action(async (addr: string | undefined, _options, command: Command) => {
      const { agentHeartbeatCommand } = await import('./agent-command');
      await agentHeartbeatCommand(contextOf(command), addr);
    });
  agent
    .command('deregister')
    .description('unreachable from now on')
    .argument('[addr]', 'the address (default $BULLSWARM_AGENT)')
    .action(async (addr: string | undefined, _options, command: Command) => {
      const { agentDeregisterCommand } = await import('./agent-command');
      await agentDeregisterCommand(contextOf(command), addr);
    });
  agent
    .command('list')
    .description('every address with its reachability and why')
    .option('--json', 'print the agents as JSON')
    .action(async (_options, command: Command) => {
      const { agentListCommand } = await import('./agent-command');
      await agentListCommand(contextOf(command), command.optsWithGlobals());
    });

  const lead = program
    .command('lead')
    .description('lead records: claim, show, resolve, handover, takeover, release, fencing');
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
    .action(async (_options, command: Command) => {
      const { leadShowCommand } = await import('./lead-command');
      await leadShowCommand(contextOf(command), command.optsWithGlobals());
    });
  lead
    .command('resolve')
    .description('print the current lead’s address (what the address `lead` resolves to)')
    .option(...PLAN)
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
    .action(async (_options, command: Command) => {
      const { inboxCommand } = await import('./notice-command');
      await inboxCommand(contextOf(command), command.optsWithGlobals());
    });

  const handoff = program
    .command('handoff')
    .description('handoff packets (dwp-handoff/v1): write, accept, launch');
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
    .option('--cwd <dir>', 'the checkout (default the current directory)')
    .option(...AS)
    .option('--no-notify', 'do not send `handoff <path>` to the lead')
    .option('--json', 'print the packet as JSON')
    .addHelpText(
      'after',
      examples(
        'bullswarm handoff write --plan release-2 --task cli --step write --reason capacity_critical --done "part 1 :: src/cli.ts" --not-verified "cli gate" --next "write part 2"',
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
    .action(async (packet: string, _options, command: Command) => {
      const { handoffAcceptCommand } = await import('./handoff-command');
      await handoffAcceptCommand(contextOf(command), packet, command.optsWithGlobals());
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
    .action(async (packet: string, _options, command: Command) => {
      const { handoffLaunchCommand } = await import('./handoff-command');
      await handoffLaunchCommand(contextOf(command), packet, command.optsWithGlobals());
    });

  program
    .command('escalate')
    .description(
      'escalate a critical item to the developer; it must name its class C1–C7 (it blocks its dependency chain, not the swarm)',
    )
    .argument('<text...>', 'what is blocked and what it needs')
    .option(
      '--class <C>',
      'C1 authority, C2 consent screen, C3 ambiguity, C4 quality conflict, C5 damage, C6 terms, C7 capacity exhausted',
    )
    .option(...PLAN)
    .option('--task <task>', 'the blocked task')
    .option(...AS)
    .option('--json', 'print the escalation as JSON')
    .action(async (text: string[], _options, command: Command) => {
      const { escalateCommand } = await import('./escalation-command');
      await escalateCommand(contextOf(command), text, command.optsWithGlobals());
    });
  const escalation = program.command('escalation').description('escalations: answer, list');
  escalation
    .command('answer')
    .description("record the developer's answer (relayed answers are recorded as relayed)")
    .argument('<id>', 'the escalation id')
    .argument('<answer...>', 'the answer')
    .option(...PLAN)
    .option('--relayed-by <addr>', 'the agent that relayed it')
    .option('--json', 'print the escalation as JSON')
    .action(async (id: string, answer: string[], _options, command: Command) => {
      const { escalationAnswerCommand } = await import('./escalation-command');
      await escalationAnswerCommand(contextOf(command), id, answer, command.optsWithGlobals());
    });
  escalation
    .command('list')
    .description('escalations of a plan')
    .option(...PLAN)
    .option('--open', 'only the unanswered ones')
    .option('--json', 'print them as JSON')
    .action(async (_options, command: Command) => {
      const { escalationListCommand } = await import('./escalation-command');
      await escalationListCommand(contextOf(command), command.optsWithGlobals());
    });

  const task = program.command('task').description('task executors: claim, done');
  task
    .command('claim')
    .description('take a task (one executor per task; refused to an agent that wrote a packet for it)')
    .argument('<task>', 'the task id')
    .option(...PLAN)
    .option(...AS)
    .action(async (id: string, _options, command: Command) => {
      const { taskClaimCommand } = await import('./task-command');
      await taskClaimCommand(contextOf(command), id, command.optsWithGlobals());
    });
  task
    .command('done')
    .description('mark a task done (its gate passed)')
    .argument('<task>', 'the task id')
    .option(...PLAN)
    .option(...AS)
    .option('--evidence <path>', 'evidence path (repeatable)', collect)
    .action(async (id: string, _options, command: Command) => {
      const { taskDoneCommand } = await import('./task-command');
      await taskDoneCommand(contextOf(command), id, command.optsWithGlobals());
    });

  const plan = program.command('plan').description('plans (plans/<id>/plan.json): status');
  plan
    .command('status')
    .description('each task done, blocked, running, ready or waiting; the lead; open escalations')
    .option(...PLAN)
    .option('--json', 'print the status as JSON')
    .action(async (_options, command: Command) => {
      const { planStatusCommand } = await import('./task-command');
      await planStatusCommand(contextOf(command), command.optsWithGlobals());
    });

  program
    .command('swarm')
    .description('swarm autonomy: the drill')
    .command('drill')
    .description(
      'prove the loop with no human keystroke: a scratch repository, a lead and three lanes on sim accounts, a capped lane handing off, a capped lead handing over',
    )
    .option(
      '--dir <scratch>',
      'a new or empty directory for the drill’s home and repository, kept (default a temp directory)',
    )
    .option('--keep', 'keep the temp directory (removed once the drill passes) and print where it is')
    .option('--json', 'print the whole report as JSON')
    .addHelpText(
      'after',
      '\nThe lead and lanes are drill actors following the protocol through the same library calls these commands use;\n' +
        'the lane work and the successor are real bullswarm-sim processes started through dispatch. Evidence goes to\n' +
        'plans/drill/analysis_results/ in the scratch repository.\n' +
        examples(
          'bullswarm swarm drill',
          'bullswarm swarm drill --keep',
          'bullswarm swarm drill --dir /tmp/drill --json',
        ),
    )
    .action(async (_options, command: Command) => {
      const { drillCommand } = await import('./drill-command');
      await drillCommand(contextOf(command), command.optsWithGlobals());
    });
}
