import type { ConnectorV1OutputParser } from '../spec/v1';
import {
  asNumber,
  asString,
  compact,
  createEventLineParser,
  epochToMs,
  isRecord,
  type ParseState,
} from './parse-state';

/**
 * Handles one counted Claude Code event (a stream-json line, or an element of the `--output-format
 * json` array; see `countEvent`). Shapes: research §1.2–1.4 (system/init, assistant, user, result,
 * rate_limit_event, system/api_retry, synthetic assistant errors).
 */
export function handleClaudeEvent(event: Record<string, unknown>, type: string, state: ParseState): void {
  switch (type) {
    case 'system': {
      const subtype = asString(event.subtype);
      if (subtype === 'init') {
        state.sessionId = asString(event.session_id) ?? state.sessionId;
        state.model = asString(event.model) ?? state.model;
      } else if (subtype === 'api_retry') {
        const code = asString(event.error);
        state.notices.push(
          compact({
            source: 'retry-event' as const,
            text: `API retry ${asNumber(event.attempt) ?? '?'}/${asNumber(event.max_retries) ?? '?'}: ${code ?? 'error'}${asNumber(event.error_status) === undefined ? '' : ` (${asNumber(event.error_status)})`}`,
            status: asNumber(event.error_status),
            code,
            retryAfterMs: asNumber(event.retry_delay_ms),
          }),
        );
      }
      return;
    }
    case 'assistant': {
      const message = isRecord(event.message) ? event.message : undefined;
      const model = message ? asString(message.model) : undefined;
      const synthetic =
        model === '<synthetic>' ||
        event.is_api_error_message === true ||
        event.isApiErrorMessage === true ||
        typeof event.error === 'string';
      if (synthetic) {
        state.notices.push(
          compact({
            source: 'synthetic-message' as const,
            text: messageText(message),
            code: asString(event.error),
          }),
        );
      } else if (model !== undefined && state.model === undefined) {
        state.model = model;
      }
      return;
    }
    case 'rate_limit_event': {
      const info = isRecord(event.rate_limit_info) ? event.rate_limit_info : {};
      const status = asString(info.status) ?? 'unknown';
      const rateLimitType = asString(info.rateLimitType);
      const resetsAt = epochToMs(info.resetsAt);
      state.rateLimitEvents.push(
        compact({ status, rateLimitType, resetsAt, utilization: asNumber(info.utilization) }),
      );
      if (status === 'rejected') {
        state.notices.push(
          compact({
            source: 'rate-limit-event' as const,
            text: `rate limit rejected${rateLimitType ? ` (${rateLimitType})` : ''}`,
            code: 'rejected',
            resetsAt,
          }),
        );
      }
      return;
    }
    case 'result': {
      const subtype = asString(event.subtype);
      const isError = event.is_error === true || (subtype?.startsWith('error') ?? false);
      const resultText = asString(event.result) ?? '';
      state.sessionId = asString(event.session_id) ?? state.sessionId;
      state.isError = isError;
      state.answer = isError ? '' : resultText;
      const usage = isRecord(event.usage) ? event.usage : undefined;
      const cost = asNumber(event.total_cost_usd);
      if (usage || cost !== undefined) {
        state.usage = compact({
          inputTokens: usage ? asNumber(usage.input_tokens) : undefined,
          outputTokens: usage ? asNumber(usage.output_tokens) : undefined,
          cachedInputTokens: usage ? asNumber(usage.cache_read_input_tokens) : undefined,
          costUsd: cost,
        });
      }
      if (isRecord(event.modelUsage) && state.model === undefined) {
        state.model = Object.keys(event.modelUsage)[0];
      }
      if (isError) {
        const errors = Array.isArray(event.errors) ? event.errors.filter((e) => typeof e === 'string') : [];
        state.notices.push(
          compact({
            source: 'result-error' as const,
            text: resultText || errors.join('; '),
            status: asNumber(event.api_error_status),
            code: subtype,
          }),
        );
      }
      return;
    }
    default:
      // user (tool results), stream_event, other system subtypes: counted, never matched.
      return;
  }
}

function messageText(message: Record<string, unknown> | undefined): string {
  if (!message) return '';
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is Record<string, unknown> => isRecord(part) && part.type === 'text')
    .map((part) => asString(part.text) ?? '')
    .join('');
}

/**
 * Claude Code `-p --output-format stream-json --verbose` (NDJSON). The answer is `result` of the
 * last `result` event; `is_error:true` (or an `error_*` subtype) marks a provider error and the
 * answer is then empty (its text becomes a `result-error` notice).
 */
export function createClaudeStreamJsonParser(): ConnectorV1OutputParser {
  return createEventLineParser(handleClaudeEvent);
}
