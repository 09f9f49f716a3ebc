import type { Redactor } from '@bullswarm/connectors/redact';
import { type BullswarmRuntime, runtimeRedactor } from '@bullswarm/dispatch';

/**
 * The redactor of a run's files (program.json, state.json, events.jsonl, report.json):
 * `runtimeRedactor` of dispatch — token shapes and the values of credential-named variables of the
 * runtime's environment and of every pool's account environment. An agent's answer, stderr or
 * schema data, or an `--input` value, that carries a secret is written as `[redacted <kind>]`.
 * (Attempt transcripts are redacted as they are written, by dispatch's attempt-output writer.)
 */
export function runRedactor(
  runtime: Pick<BullswarmRuntime, 'env' | 'state'> &
    Partial<Pick<BullswarmRuntime, 'connectors' | 'home' | 'userHome'>>,
): Redactor {
  return runtimeRedactor(runtime);
}
