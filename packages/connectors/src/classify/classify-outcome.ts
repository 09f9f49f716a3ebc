import type { ConnectorV1ClassifyInput, ConnectorV1Notice, ConnectorV1Outcome } from '../spec/v1';
import {
  AUTH_CODES,
  AUTH_PATTERNS,
  NOT_A_WINDOW_PATTERNS,
  QUOTA_CODES,
  QUOTA_PATTERNS,
  THROTTLE_CODES,
  THROTTLE_PATTERNS,
  WINDOW_WORDS,
} from './notice-patterns';
import { parseResetFromText, parseWaitFromText } from './parse-reset';

/** Connector-specific knobs of {@link classifyOutcome}. */
export type ClassifyOptions = {
  /** Extra phrases (case-insensitive substrings) that mean a sign-in failure. */
  readonly authSignatures?: readonly string[];
  /** Exit codes with a fixed meaning, e.g. Gemini `{41: 'auth'}`. */
  readonly exitCodes?: Readonly<Record<string, 'quota' | 'throttle' | 'auth'>>;
};

type FailureKind = 'quota' | 'auth' | 'throttle';

type Match = { kind: FailureKind; notice: ConnectorV1Notice | undefined; text: string };

const EVIDENCE_MAX = 400;

function clip(text: string): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length > EVIDENCE_MAX ? `${single.slice(0, EVIDENCE_MAX - 1)}…` : single;
}

function any(patterns: readonly RegExp[], text: string): boolean {
  return patterns.some((pattern) => pattern.test(text));
}

/** The failure kind one provider text (with its code and status) names, if any. */
function kindOf(
  text: string,
  code: string | undefined,
  status: number | undefined,
  authSignatures: readonly string[],
): FailureKind | undefined {
  if (any(NOT_A_WINDOW_PATTERNS, text)) return 'throttle';
  if (code === 'provider.rate-limit')
    return WINDOW_WORDS.test(text) || any(QUOTA_PATTERNS, text) ? 'quota' : 'throttle';
  if ((code !== undefined && QUOTA_CODES.includes(code)) || any(QUOTA_PATTERNS, text)) return 'quota';
  const lower = text.toLowerCase();
  if (
    (code !== undefined && AUTH_CODES.includes(code)) ||
    any(AUTH_PATTERNS, text) ||
    authSignatures.some((signature) => signature !== '' && lower.includes(signature.toLowerCase())) ||
    status === 401
  ) {
    return 'auth';
  }
  if (
    (code !== undefined && THROTTLE_CODES.includes(code)) ||
    any(THROTTLE_PATTERNS, text) ||
    status === 429 ||
    status === 529
  ) {
    return 'throttle';
  }
  return undefined;
}

const PRECEDENCE: Record<FailureKind, number> = { quota: 3, auth: 2, throttle: 1 };

/**
 * Classifies one attempt (pure). The rules, in order:
 *
 * 1. Exit 0, no signal, no provider error (`parsed.isError`) and a non-empty answer → `ok`,
 *    whatever the answer says: texts are never matched in assistant prose or tool output.
 * 2. Otherwise every provider notice (`parsed.notices`) and every stderr line is matched. A
 *    Claude `rate_limit_event` with status `rejected` is a spent window. When several match, the
 *    strongest wins: `quota` > `auth` > `throttle` (a usage-limit notice often carries a 429 status
 *    or a `rate_limit_error` log line beside it; a dead credential outranks a throttle).
 *    `… (not your usage limit)` is always a throttle. An opencode `provider.rate-limit` that
 *    names a window (`weekly … limit`) is a quota.
 * 3. Per docs/routing.md, a window phrase with no named reset is still `quota` (`resetsAt` absent).
 *    When the provider's terminal error (`result-error`) names no limit, earlier retry and
 *    reconnect notices are not matched: they did not end the run.
 * 4. Nothing matched: an exit code the connector maps (`exitCodes`, e.g. Gemini 41 → auth); else
 *    exit 0 without an answer → `empty`; else `process` (non-zero exit, signal, provider error).
 *
 * A throttle quotes its final notice (the terminal result-error when it matched, else the last
 * match) and names a wait only from that notice's text, a `Retry-After` on stderr, or a reset time
 * in that notice; the delays of the CLI's own retries (`retry_delay_ms`) are never a named wait.
 *
 * Resets are parsed from the matched notice (and from a rejected `rate_limit_event`'s
 * `resetsAt`, which is preferred as the more precise); clock times without a zone are read in
 * `input.timeZone` (default: the host zone).
 */
export function classifyOutcome(
  input: ConnectorV1ClassifyInput,
  options: ClassifyOptions = {},
): ConnectorV1Outcome {
  const { parsed, exitCode, signal } = input;
  const exitedCleanly = exitCode === 0 && signal === null;
  const hasAnswer = parsed.answer.trim() !== '';
  if (exitedCleanly && !parsed.isError && hasAnswer) {
    return {
      kind: 'ok',
      message: 'answered',
      evidence: `exit code 0, answer of ${parsed.answer.length} chars`,
    };
  }

  const authSignatures = options.authSignatures ?? [];
  const matches: Match[] = [];
  const kindOfNotice = (notice: ConnectorV1Notice): FailureKind | undefined =>
    notice.source === 'rate-limit-event'
      ? 'quota'
      : kindOf(notice.text, notice.code, notice.status, authSignatures);
  // When the provider's terminal error names no limit (e.g. Claude `error_max_turns`), earlier
  // transient notices (retries, reconnects) did not end the run and are not its verdict.
  const terminal = parsed.notices.filter((notice) => notice.source === 'result-error').at(-1);
  const transientOnly = terminal !== undefined && kindOfNotice(terminal) === undefined;
  for (const notice of parsed.notices) {
    if (transientOnly && (notice.source === 'retry-event' || notice.source === 'error-event')) continue;
    const kind = kindOfNotice(notice);
    if (kind)
      matches.push({
        kind,
        notice,
        text: notice.text || `${notice.code ?? ''} ${notice.status ?? ''}`.trim(),
      });
  }
  // A JSON error object on stderr (Gemini CLI `-o json` writes `{"session_id", "error": {type,
  // message, code}}` there, stdout empty) is a provider notice of its own.
  const stderrError = stderrJsonError(input.stderr);
  if (stderrError !== undefined) {
    const kind = kindOf(stderrError.message, stderrError.type, stderrError.status, authSignatures);
    if (kind) matches.push({ kind, notice: undefined, text: stderrError.message });
  }
  for (const line of input.stderr.split('\n')) {
    if (line.trim() === '') continue;
    const kind = kindOf(line, undefined, undefined, authSignatures);
    if (kind) matches.push({ kind, notice: undefined, text: line });
  }

  const timeZone = input.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const best = matches.reduce<Match | undefined>(
    (winner, match) => (!winner || PRECEDENCE[match.kind] > PRECEDENCE[winner.kind] ? match : winner),
    undefined,
  );
  if (best) {
    const same = matches.filter((match) => match.kind === best.kind);
    // Prefer the human notice as evidence over a bare rate_limit_event; a throttle quotes its final
    // notice (the result the CLI ended with), not a retry the CLI announced on the way.
    const evidenceMatch =
      best.kind === 'throttle'
        ? finalMatch(same)
        : (same.find((match) => match.notice?.source !== 'rate-limit-event') ?? best);
    if (best.kind === 'quota') {
      const structured = same.find((match) => match.notice?.resetsAt !== undefined)?.notice?.resetsAt;
      const fromText = same
        .map((match) => parseResetFromText(match.text, input.now, timeZone))
        .find((value) => value !== undefined);
      const resetsAt = structured ?? fromText;
      return outcome('quota', evidenceMatch.text, resetsAt === undefined ? {} : { resetsAt });
    }
    if (best.kind === 'throttle') {
      // A wait the provider named: in the final notice's text, else a `Retry-After:` line on stderr
      // (it follows the status line), else a reset time in the final notice. A delay the CLI spent
      // on its own retries (Claude `api_retry` `retry_delay_ms`, Codex `Reconnecting... n/5 (…)`)
      // is not one: those retries are over when the attempt ends.
      const finalText = evidenceMatch.notice?.source === 'retry-event' ? '' : evidenceMatch.text;
      const resetsAt = finalText === '' ? undefined : parseResetFromText(finalText, input.now, timeZone);
      const waitMs =
        (finalText === '' ? undefined : parseWaitFromText(finalText)) ??
        parseWaitFromText(input.stderr) ??
        (resetsAt !== undefined && resetsAt > input.now ? resetsAt - input.now : undefined);
      return outcome('throttle', evidenceMatch.text, waitMs === undefined ? {} : { waitMs });
    }
    return outcome('auth', evidenceMatch.text, {});
  }

  const mapped = exitCode === null ? undefined : options.exitCodes?.[String(exitCode)];
  if (mapped) {
    const text = lastLine(input.stderr) || `exit code ${exitCode}`;
    return outcome(mapped, `exit code ${exitCode}: ${text}`, {});
  }
  if (exitedCleanly && !parsed.isError) {
    return {
      kind: 'empty',
      message: 'no answer (exit code 0)',
      evidence: `exit code 0, ${parsed.events.total} events, no answer text`,
    };
  }
  const why =
    signal !== null
      ? `killed by ${signal}`
      : exitCode === 0
        ? 'provider reported an error'
        : `exited with code ${exitCode ?? 'unknown'}`;
  // The provider's last notice (with its HTTP status, e.g. a probe's 404), else stderr's last line.
  const notice = parsed.notices.at(-1);
  const noticeText = notice
    ? `${notice.status === undefined ? '' : `[${notice.status}] `}${notice.text}`.trim()
    : '';
  const detail = noticeText || stderrError?.message || lastLine(input.stderr);
  return {
    kind: 'process',
    message: detail ? `${why}: ${clip(detail)}` : why,
    evidence: clip(detail ? `${why}; ${detail}` : why),
  };
}

/**
 * The final notice among matches of one kind: the provider's terminal error (`result-error`) when
 * it is among them, else the last one in stream order, stderr lines last.
 */
function finalMatch(matches: readonly Match[]): Match {
  return matches.filter((match) => match.notice?.source === 'result-error').at(-1) ?? matches.at(-1)!;
}

const LABELS: Record<FailureKind, string> = {
  quota: 'usage limit',
  auth: 'sign-in failure',
  throttle: 'rate limited',
};

/** A failure verdict: `message` is the kind's label and the clipped evidence. */
function outcome(
  kind: FailureKind,
  text: string,
  extra: { resetsAt?: number; waitMs?: number },
): ConnectorV1Outcome {
  const evidence = clip(text);
  return { kind, message: `${LABELS[kind]}: ${evidence}`, evidence, ...extra };
}

/**
 * The error of a JSON document on stderr: the first line opening with `{` to the end, parsed as one
 * object with `error.message` (a string). `status` is `error.code` when it is an HTTP status.
 */
function stderrJsonError(stderr: string): { message: string; type?: string; status?: number } | undefined {
  const start = stderr.search(/^\{/m);
  if (start === -1) return undefined;
  let document: unknown;
  try {
    document = JSON.parse(stderr.slice(start));
  } catch {
    return undefined;
  }
  if (typeof document !== 'object' || document === null) return undefined;
  const error = (document as Record<string, unknown>).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { message, type, code } = error as Record<string, unknown>;
  if (typeof message !== 'string' || message.trim() === '') return undefined;
  return {
    message,
    ...(typeof type === 'string' ? { type } : {}),
    ...(typeof code === 'number' && code >= 400 && code < 600 ? { status: code } : {}),
  };
}

function lastLine(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.at(-1)?.trim() ?? '';
}
