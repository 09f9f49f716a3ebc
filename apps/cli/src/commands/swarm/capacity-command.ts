import type { PlanLocation } from '@bullswarm/swarm';
import { CliUsageError } from '../../cli/cli-errors';
import { type CommandContext, printJson } from '../../cli/command-context';
import { planOf, withSwarm } from './swarm-command-support';

/** Options of `bullswarm capacity`. */
export interface CapacityCommandOptions {
  readonly self?: boolean;
  readonly pool?: string;
  readonly plan?: string;
  readonly json?: boolean;
}

/**
 * `bullswarm capacity [--self | --pool <p>] [--json]`: the verdict ok / low / critical / unknown and
 * the capacity line agents end their messages with (`capacity=ok 64% @work1 decision=continue`).
 * The line goes to stdout; the reason and what a lane and a lead do on it to stderr; the verdict is
 * journalled in the plan when one is known.
 */
export async function capacityCommand(
  context: CommandContext,
  options: CapacityCommandOptions,
): Promise<void> {
  if (options.self && options.pool !== undefined) {
    throw new CliUsageError({ message: '--self and --pool cannot be combined: pick one', flag: '--self' });
  }
  const { CAPACITY_ACTIONS, checkCapacity } = await import('@bullswarm/swarm');
  await withSwarm(context, async (swarm, runtime) => {
    // The verdict is journalled in the plan (an observation) when one is named, or when the
    // launch's $BULLSWARM_PLAN resolves; a plan that does not resolve from the environment never
    // stops the capacity line.
    let plan: PlanLocation | undefined;
    if (options.plan !== undefined) plan = await planOf(context, swarm, options.plan);
    else if (context.io.env.BULLSWARM_PLAN)
      plan = await planOf(context, swarm, undefined).catch(() => undefined);
    const by = context.io.env.BULLSWARM_AGENT || undefined;
    // A capacity check is a turn boundary: a registered agent is alive now.
    if (by !== undefined && options.pool === undefined) await swarm.agents.touch(by);
    const report = await checkCapacity(runtime, {
      ...(options.pool === undefined ? { self: true } : { pool: options.pool }),
      env: context.io.env,
      ...(plan === undefined ? {} : { plan }),
      ...(by === undefined ? {} : { by }),
    });
    if (options.json) {
      printJson(context, report);
      return;
    }
    context.io.out(`${report.line}\n`);
    context.io.err(`${report.reason}\n`);
    const action = CAPACITY_ACTIONS[report.verdict];
    context.io.err(`decision ${report.decision}: a lane ${action.lane}; a lead ${action.lead}\n`);
  });
}
