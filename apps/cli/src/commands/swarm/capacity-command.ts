import { CliUsageError } from '../../cli/cli-errors';
import type { CommandContext } from '../../cli/command-context';
import { printJson } from '../../cli/command-context';
import { withSwarm } from './swarm-command-support';

/** Options of `bullswarm capacity`. */
export interface CapacityCommandOptions {
  readonly self?: boolean;
  readonly pool?: string;
  readonly json?: boolean;
}

/**
 * `bullswarm capacity [--self | --pool <p>] [--json]`: the verdict ok / low / critical / unknown and
 * the capacity line agents end their messages with (`capacity=ok 64% @work1`).
 */
export async function capacityCommand(
  context: CommandContext,
  options: CapacityCommandOptions,
): Promise<void> {
  if (options.self && options.pool !== undefined) {
    throw new CliUsageError({ message: '--self and --pool cannot be combined: pick one', flag: '--self' });
  }
  const { readCapacity } = await import('@bullswarm/swarm');
  await withSwarm(context, async (_swarm, runtime) => {
    const report = await readCapacity(runtime, {
      ...(options.pool === undefined ? { self: true } : { pool: options.pool }),
      env: context.io.env,
    });
    if (options.json) {
      printJson(context, report);
      return;
    }
    context.io.out(`${report.line}\n`);
    context.io.err(`${report.reason}\n`);
  });
}
