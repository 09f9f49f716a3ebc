import type { BullswarmRuntime } from '@bullswarm/dispatch/routing';
import type { PlanLocation, Swarm } from '@bullswarm/swarm';
import { type CommandContext, withRuntime } from '../../cli/command-context';
import { parseWholeNumber } from '../../parse/parse-options';

/**
 * Runs a swarm command with an open runtime (the store is created when missing: swarm records
 * live in it) and the swarm books over it. Swarm input errors (`fault: 'input'`) exit 2;
 * refusals (fencing, a held lease, a mismatching packet…) exit 1.
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
    throw await redacted(context, error);
  }
}

/**
 * The error with every secret in its message (a token-shaped unknown key, a `--step` value, a
 * credential variable's value) replaced by `[redacted <kind>]` (`redactSecrets`): a swarm error
 * names the field and the kind, never the value. The error keeps its class and fields.
 */
export async function redacted(context: CommandContext, error: unknown): Promise<unknown> {
  if (!(error instanceof Error)) return error;
  const { redactSecrets } = await import('@bullswarm/swarm');
  const message = redactSecrets(error.message, context.io.env);
  if (message !== error.message) {
    error.message = message;
    if (typeof error.stack === 'string') error.stack = redactSecrets(error.stack, context.io.env);
    if ('received' in error && typeof error.received === 'string') {
      Object.defineProperty(error, 'received', { value: redactSecrets(error.received, context.io.env) });
    }
  }
  return error;
}

/** Resolves `--plan` (else `$BULLSWARM_PLAN`) against the working directory and the lead records. */
export async function planOf(
  context: CommandContext,
  swarm: Swarm,
  ref: string | undefined,
): Promise<PlanLocation> {
  const { resolvePlanRef } = await import('@bullswarm/swarm');
  return resolvePlanRef(ref, {
    cwd: context.io.cwd,
    env: context.io.env,
    knownRepos: (id) => swarm.leads.knownRepos(id),
  });
}

/** The address this command acts as: `--as`, else `$BULLSWARM_AGENT`. */
export async function selfOf(
  context: CommandContext,
  explicit: string | undefined,
  flag = '--as',
): Promise<string> {
  const { resolveSelfAddress } = await import('@bullswarm/swarm');
  return resolveSelfAddress(explicit, context.io.env, flag);
}

/** Writes lines to stdout. */
export function printLines(context: CommandContext, lines: readonly string[]): void {
  for (const line of lines) context.io.out(`${line}\n`);
}

/** An ISO instant for people. */
export function iso(ms: number | undefined | null): string {
  return ms === undefined || ms === null ? '-' : new Date(ms).toISOString();
}

/** A whole number option that may be absent (`--epoch 3`, `--pid 123`); see `parseWholeNumber`. */
export function parseInteger(value: string | undefined, flag: string, min = 1): number | undefined {
  return value === undefined ? undefined : parseWholeNumber(value, flag, min);
}
