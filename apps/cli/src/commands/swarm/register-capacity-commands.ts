import type { Command } from 'commander';
import { examples } from '../../output/help-examples';
import { collect } from '../../parse/parse-options';
import { AS, type ContextOf, PLAN } from './swarm-options';

/** Registers capacity, pick, lease (release, list) and agent (register, heartbeat, deregister, list). */
export function registerCapacityCommands(program: Command, contextOf: ContextOf): void {
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
    .addHelpText(
      'after',
      examples('bullswarm lease release @work2 --as lead-1', 'bullswarm lease release sim:work2 --as lane-a'),
    )
    .action(async (pool: string, _options, command: Command) => {
      const { leaseReleaseCommand } = await import('./lease-command');
      await leaseReleaseCommand(contextOf(command), pool, command.opts());
    });
  lease
    .command('list')
    .description('active leases')
    .option('--json', 'print the leases as JSON')
    .addHelpText('after', examples('bullswarm lease list', 'bullswarm lease list --json'))
    .action(async (_options, command: Command) => {
      const { leaseListCommand } = await import('./lease-command');
      await leaseListCommand(contextOf(command), command.optsWithGlobals());
    });

  const agent = program
    .command('agent')
    .description(
      'agent addresses and heartbeats; unreachable = never registered, deregistered, its process gone, or no heartbeat for $BULLSWARM_AGENT_STALE_SEC (900)',
    )
    .addHelpText(
      'after',
      examples(
        'bullswarm agent register lane-a --pool @work2 --pid $$',
        'bullswarm agent heartbeat lane-a',
        'bullswarm agent list',
      ),
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
    .addHelpText('after', examples('bullswarm agent heartbeat', 'bullswarm agent heartbeat lane-a'))
    .action(async (addr: string | undefined, _options, command: Command) => {
      const { agentHeartbeatCommand } = await import('./agent-command');
      await agentHeartbeatCommand(contextOf(command), addr);
    });
  agent
    .command('deregister')
    .description('unreachable from now on')
    .argument('[addr]', 'the address (default $BULLSWARM_AGENT)')
    .addHelpText('after', examples('bullswarm agent deregister lane-a'))
    .action(async (addr: string | undefined, _options, command: Command) => {
      const { agentDeregisterCommand } = await import('./agent-command');
      await agentDeregisterCommand(contextOf(command), addr);
    });
  agent
    .command('list')
    .description('every address with its reachability and why')
    .option('--json', 'print the agents as JSON')
    .addHelpText('after', examples('bullswarm agent list', 'bullswarm agent list --json'))
    .action(async (_options, command: Command) => {
      const { agentListCommand } = await import('./agent-command');
      await agentListCommand(contextOf(command), command.optsWithGlobals());
    });
}
