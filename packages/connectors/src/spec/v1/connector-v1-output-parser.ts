/**
 * A streaming parser for one attempt's stdout. Create one per attempt with
 * {@link ConnectorV1.createOutputParser}.
 *
 * `push` takes arbitrary chunks (a line may be split across chunks, a chunk may hold many
 * lines); `end` flushes the last partial line and returns the result. Unknown event types and
 * non-JSON lines are counted and otherwise ignored.
 */
export type ConnectorV1OutputParser = {
  push(chunk: string): void;
  end(): ConnectorV1ParsedOutput;
};

/**
 * Where a provider notice was found. Only these shapes are ever matched against limit, throttle
 * and sign-in texts, never assistant prose or tool output.
 *
 * - `result-error`: a terminal result/turn event that reports an error (Claude `result` with
 *   `is_error`, Codex `turn.failed`, Gemini `result` with `status:"error"`).
 * - `error-event`: a provider error event (Codex/opencode `error`).
 * - `synthetic-message`: an assistant line the CLI synthesised from an API error (Claude
 *   `model:"<synthetic>"` / `isApiErrorMessage`).
 * - `retry-event`: a retry notice (Claude `system/api_retry`).
 * - `rate-limit-event`: Claude `rate_limit_event` with status `rejected`.
 * - `stop-reason`: a terminal stop reason that is not a normal end (Grok `stopReason`).
 */
export type ConnectorV1NoticeSource =
  | 'result-error'
  | 'error-event'
  | 'synthetic-message'
  | 'retry-event'
  | 'rate-limit-event'
  | 'stop-reason';

/** One provider notice: a terminal or error event's text and structured fields. */
export type ConnectorV1Notice = {
  readonly source: ConnectorV1NoticeSource;
  /** The notice's text as the provider wrote it (may be empty when only fields were given). */
  readonly text: string;
  /** HTTP status the provider reported (`api_error_status`, `error_status`, `statusCode`). */
  readonly status?: number;
  /** A machine code the provider reported (`error:"rate_limit"`, `TerminalQuotaError`, `provider.quota`). */
  readonly code?: string;
  /** A reset time the event carried as a field (epoch ms). */
  readonly resetsAt?: number;
  /** A wait the event carried as a field (`retry_delay_ms`), in ms. */
  readonly retryAfterMs?: number;
};

/** Claude's in-stream `rate_limit_event` info (any status). */
export type ConnectorV1RateLimitEvent = {
  /** `allowed`, `allowed_warning` or `rejected`. */
  readonly status: string;
  /** `five_hour`, `seven_day`, `seven_day_opus`, … when given. */
  readonly rateLimitType?: string;
  /** Reset time (epoch ms; seconds in the stream are converted). */
  readonly resetsAt?: number;
  /** Fraction 0–1 when given. */
  readonly utilization?: number;
};

/** Token usage as the provider reported it (fields absent when not reported). */
export type ConnectorV1Usage = {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly cachedInputTokens?: number;
  readonly reasoningTokens?: number;
  readonly costUsd?: number;
};

/** What a parser made of one attempt's stdout. */
export type ConnectorV1ParsedOutput = {
  /** The final answer text ('' when there was none). */
  readonly answer: string;
  /** Event counts: `total`, `ignored` (unknown types, non-JSON lines), and one count per kind seen. */
  readonly events: {
    readonly total: number;
    readonly ignored: number;
    readonly kinds: Readonly<Record<string, number>>;
  };
  /**
   * The provider reported a terminal error (Claude `is_error:true`, Codex `turn.failed`, Gemini
   * `status:"error"`, an opencode `error` event). A run with this flag is never `ok`.
   */
  readonly isError: boolean;
  readonly sessionId?: string;
  readonly usage?: ConnectorV1Usage;
  readonly model?: string;
  /** Provider notices only (terminal/error events), in stream order. */
  readonly notices: readonly ConnectorV1Notice[];
  /** Claude `rate_limit_event` infos, in stream order. */
  readonly rateLimitEvents: readonly ConnectorV1RateLimitEvent[];
};
