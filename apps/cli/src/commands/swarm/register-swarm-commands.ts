import type { Command } from 'commander';
import type { CommandContext } from '../../cli/command-context';

function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

/**
 * Registers the swarm commands (capacity, pick, lease, agent, lead, notify, inbox, handoff,
 * escalate, task, plan, swarm drill) on the program. Every action imports its module lazily.
 */
export function registerSwarmCommands(
  program: Command,
  contextOf: (command: Command) => CommandContext,
): void {
  program
    .command('capacity')
    .description(
      'the capacity verdict (ok, low, critical, unknown) of this agent’s pool or a named one, and the capacity line agents end their messages with',
    )
    .option(
      '--self',
      'the pool this agent runs on ($BULLSWARM_POOL; unknown outside a bullswarm launch) [default]',
    )
    .option('--pool <pool>', 'a pool id or label')
    .option('--json', 'print the verdict, numbers, thresholds and cap as JSON')
    .addHelpText(
      'after',
      '\nThresholds: low at 25%, critical at 10% of the binding window’s free share (BULLSWARM_CAPACITY_LOW /\n' +
        'BULLSWARM_CAPACITY_CRITICAL, or AGENTKIT_CAPACITY_*). A cap (BULLSWARM_CAPACITY_CAP=@<pool>=8, comma-separated)\n' +
        'only lowers a reading. Readings come from a meter cache kept 300 s.\n' +
        examples('bullswarm capacity --self', 'bullswarm capacity --pool work1 --json'),
    )
    .action(async (_options, command: Command) => {
      const { capacityCommand } = await import('./capacity-command');
      await capacityCommand(contextOf(command), command.optsWithGlobals());
    });
}
