import type { BullswarmRuntime } from '@bullswarm/dispatch/routing';
import type { PlanLocation, Swarm } from '@bullswarm/swarm';
import { CliUsageError } from '../../cli/cli-errors';
import { type CommandContext, withRuntime } from '../../cli/command-context';
import { parseWholeNumber } from '../../parse/parse-options';

/** How a command spells the swarm library's API fields: field → flag or argument. */
export type SwarmFlags = Readonly<Record<string, string>>;

/**
 * The flags most swarm commands spell the library's fields with (the library names API fields in
 * its errors, e.g. `succession`; the CLI's messages name `--succession`). A command whose
 * arguments spell a field otherwise passes its own entries to {@link withSwarm}.
 */
export const SWARM_FLAGS: SwarmFlags = {
  plan: '--plan',
  epoch: '--epoch',
  address: '--as',
  from: '--as',
  author: '--as',
  by: '--as',
  succession: '--succession',
  lanes: '--lanes',
  designate: '<addr>',
  to: '<addr>',
  reason: '--reason',
  task: '--task',
  step: '--step',
  text: '<text>',
  kind: '<kind>',
  re: '--re',
  class: '--class',
  relayedBy: '--relayed-by',
  answer: '<answer>',
  id: '<id>',
  pid: '--pid',
  pool: '--pool',
  holder: '--to',
  owner: '--owner',
  successor: '--to',
  ttlMs: '--ttl',
  dir: '--dir',
  command: '<command...>',
  releaseOrder: '--release-order',
  pendingMerges: '--pending-merge',
  timeoutMs: '--timeout',
};

/**
 * Runs a swarm command with an open runtime (the store is created when missing: swarm records
 * live in it) and the swarm books over it. Swarm input errors (`fault: 'input'`) exit 2, their
 * field spelt as this command's flag (`flags` over {@link SWARM_FLAGS}); refusals (fencing, a
 * held lease, a mismatching packet…) exit 1.
 */
export async function withSwarm<T>(
  context: CommandContext,
  body: (swarm: Swarm, runtime: BullswarmRuntime) => Promise<T> | T,
  flags: SwarmFlags = {},
): Promise<T> {
  const { createSwarm } = await import('@bullswarm/swarm');
  const { runtimeRedactor } = await import('@bullswarm/dispatch/routing');
  try {
    return await withRuntime(context, { createStore: true }, async (runtime) => {
      const swarm = await createSwarm({
        store: await runtime.requireStore(),
        env: context.io.env,
        clock: runtime.clock,
        // Notices, escalations and journal entries: the process's and every pool's credential values.
        redactor: runtimeRedactor(runtime),
      });
      return await body(swarm, runtime);
    });
  } catch (error) {
    throw await redacted(context, await asCliError(error, flags));
  }
}

/**
 * A swarm library error as this command says it: a `SwarmInputError` on a field the command
 * spells as a flag becomes a usage error naming the flag (`--epoch "0" is not valid: …`, with the
 * flag for `--json` usage output); a plan with no lead record says how to claim it. Any other
 * error is returned as it is (a packet field such as `next[0]`, or a variable, is already named
 * as the user wrote it).
 */
export async function asCliError(error: unknown, flags: SwarmFlags = {}): Promise<unknown> {
  const { LeadRecordError, SwarmInputError } = await import('@bullswarm/swarm');
  if (SwarmInputError.isInstance(error)) {
    const flag = { ...SWARM_FLAGS, ...flags }[error.field];
    if (flag === undefined) return error;
    return new CliUsageError({
      message: SwarmInputError.describe(flag, error.expected, error.received),
      flag,
      expected: error.expected,
      cause: error,
    });
  }
  if (LeadRecordError.isInstance(error) && error.reason === 'no-record') {
    const plan = error.plan.slice(error.plan.lastIndexOf('/') + 1);
    error.message = `${error.message}; the lead claims it with \`bullswarm lead claim --plan ${plan} [--succession <A,B>]\``;
  }
  return error;
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

/**
 * The address this command acts as: `--as` (or `flag`), else `$BULLSWARM_AGENT`. Neither is a
 * usage error naming the flag and how to give it.
 */
export async function selfOf(
  context: CommandContext,
  explicit: string | undefined,
  flag = '--as',
): Promise<string> {
  const { BULLSWARM_AGENT, resolveSelfAddress } = await import('@bullswarm/swarm');
  const fromEnv = context.io.env[BULLSWARM_AGENT];
  if ((explicit === undefined || explicit === '') && (fromEnv === undefined || fromEnv === '')) {
    const expected = `the agent's address: pass ${flag} <address>, or run inside a bullswarm launch (which sets ${BULLSWARM_AGENT})`;
    throw new CliUsageError({ message: `${flag} is missing: expected ${expected}`, flag, expected });
  }
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
