import type { BullswarmRuntime } from '@bullswarm/dispatch';
import { hasErrorMarker } from '@bullswarm/pacing';
import type { Swarm } from '@bullswarm/swarm';
import { CliUsageError } from '../../cli/cli-errors';
import { type CommandContext, withRuntime } from '../../cli/command-context';

/** Swarm errors that mean the input was wrong (exit 2); every other swarm refusal exits 1. */
const SWARM_INPUT_ERROR_KEYS = [
  'bullswarm.error.SwarmInputError',
  'bullswarm.error.PlanFileError',
  'bullswarm.error.EscalationClassError',
] as const;

/**
 * Runs a swarm command with an open runtime (the store is created when missing: swarm records
 * live in it) and the swarm books over it. Swarm input errors become usage errors (exit 2);
 * refusals (fencing, a held lease, a mismatching packet…) stay bullswarm errors (exit 1).
 */
export async function withSwarm<T>(
  context: CommandContext,
  body: (swarm: Swarm, runtime: BullswarmRuntime) => Promise<T> | T,
): Promise<T> {
  const { createSwarm } = await import('@bullswarm/swarm');
  try {
    return await withRuntime(context, { createStore: true }, async (runtime) => {
      const swarm = createSwarm({ store: runtime.requireStore(), env: context.io.env, clock: runtime.clock });
      return await body(swarm, runtime);
    });
  } catch (error) {
    if (SWARM_INPUT_ERROR_KEYS.some((key) => hasErrorMarker(error, key))) {
      throw new CliUsageError({ message: (error as Error).message, cause: error });
    }
    throw error;
  }
}

/** Writes lines to stdout. */
export function printLines(context: CommandContext, lines: readonly string[]): void {
  for (const line of lines) context.io.out(`${line}\n`);
}

/** An ISO instant for people. */
export function iso(ms: number | undefined | null): string {
  return ms === undefined || ms === null ? '-' : new Date(ms).toISOString();
}
