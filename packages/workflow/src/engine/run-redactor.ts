import { createRedactor, type Redactor } from '@bullswarm/connectors/redact';
import type { BullswarmRuntime } from '@bullswarm/dispatch';

/**
 * The redactor of a run's files (program.json, state.json, events.jsonl, report.json): token
 * shapes and the values of credential-named variables of the runtime's environment and of every
 * pool's account environment. An agent's answer, stderr or schema data, or an `--input` value,
 * that carries a secret is written as `[redacted <kind>]`.
 */
export function runRedactor(runtime: Pick<BullswarmRuntime, 'env' | 'state'>): Redactor {
  return createRedactor([runtime.env, ...runtime.state.pools.map((pool) => pool.env ?? {})]);
}
