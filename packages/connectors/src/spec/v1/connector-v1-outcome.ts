import type { ConnectorV1ParsedOutput } from './connector-v1-output-parser';

/**
 * How one attempt ended, as the connector classifies it.
 *
 * - `ok`: exit 0, no provider error, an answer.
 * - `quota`: a usage window, quota or balance is spent (with or without a named reset).
 * - `throttle`: a transient rate limit or overload that is not a spent window.
 * - `auth`: a sign-in failure; the whole credential group is skipped for the step's retry.
 * - `empty`: exit 0 and no provider error, but no answer text.
 * - `process`: anything else (non-zero exit, signal, crash).
 */
export type ConnectorV1OutcomeKind = 'ok' | 'quota' | 'throttle' | 'auth' | 'process' | 'empty';

export type ConnectorV1Outcome = {
  readonly kind: ConnectorV1OutcomeKind;
  /** One human line, e.g. `usage limit: You've hit your limit · resets 11pm (America/Anchorage)`. */
  readonly message: string;
  /** When the spent window resets (epoch ms), when the provider named it. */
  readonly resetsAt?: number;
  /** The wait the provider named for a throttle (ms), when it named one. */
  readonly waitMs?: number;
  /** The provider text (or field) the verdict rests on, e.g. the notice line or `exit code 1`. */
  readonly evidence: string;
};

/** Everything {@link ConnectorV1.classifyOutcome} looks at. */
export type ConnectorV1ClassifyInput = {
  /** Exit code; null when killed by a signal. */
  readonly exitCode: number | null;
  /** The signal that killed the process, e.g. `SIGTERM`; null otherwise. */
  readonly signal: string | null;
  readonly parsed: ConnectorV1ParsedOutput;
  /** Everything the process wrote to stderr (may be truncated by the caller). */
  readonly stderr: string;
  /** The time the attempt ended (epoch ms): relative resets are counted from it. */
  readonly now: number;
  /**
   * IANA zone for clock times a notice prints without a zone (the CLIs print host-local time).
   * Defaults to the host zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`).
   */
  readonly timeZone?: string;
};
