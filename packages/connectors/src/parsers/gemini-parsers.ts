import type { ConnectorV1OutputParser } from '../spec/v1';
import {
  asNumber,
  asString,
  compact,
  createEventLineParser,
  createJsonDocumentParser,
  isRecord,
  type ParseState,
} from './parse-state';

function geminiErrorNotice(error: Record<string, unknown>, state: ParseState): void {
  state.notices.push(
    compact({
      source: 'result-error' as const,
      text: asString(error.message) ?? '',
      code: asString(error.type),
      status: asNumber(error.code),
    }),
  );
}

function geminiUsage(stats: Record<string, unknown>, state: ParseState): void {
  state.usage = compact({
    inputTokens: asNumber(stats.input_tokens),
    outputTokens: asNumber(stats.output_tokens),
    cachedInputTokens: asNumber(stats.cached),
  });
}

/**
 * Gemini CLI `-p … -o stream-json` (NDJSON; research §3.1, shapes from the 0.61.0 bundle): `init`,
 * `message` (assistant deltas are concatenated into the answer), `tool_use`, `tool_result`,
 * `error`, and a final `result` whose `status:"error"` carries `error{type,message}`
 * (`TerminalQuotaError`, `RetryableQuotaError`).
 */
export function createGeminiStreamJsonParser(): ConnectorV1OutputParser {
  return createEventLineParser((event, type, state) => {
    switch (type) {
      case 'init':
        state.sessionId = asString(event.session_id) ?? state.sessionId;
        state.model = asString(event.model) ?? state.model;
        return;
      case 'message':
        if (event.role === 'assistant') state.answer += asString(event.content) ?? '';
        return;
      case 'error':
        state.notices.push(
          compact({
            source: 'error-event' as const,
            text: asString(event.message) ?? '',
            code: asString(event.severity),
          }),
        );
        return;
      case 'result': {
        if (isRecord(event.stats)) geminiUsage(event.stats, state);
        if (event.status === 'error') {
          state.isError = true;
          geminiErrorNotice(isRecord(event.error) ? event.error : {}, state);
        } else {
          state.isError = false;
        }
        return;
      }
      default:
        return;
    }
  });
}

/**
 * Gemini CLI `-p … -o json`: one document `{session_id, response, stats, error?}` (research §3.1).
 * The answer is `response`; an `error` object marks a provider error.
 */
export function createGeminiJsonParser(): ConnectorV1OutputParser {
  return createJsonDocumentParser((document, state) => {
    state.sessionId = asString(document.session_id);
    state.answer = asString(document.response) ?? '';
    if (isRecord(document.stats) && isRecord(document.stats.models)) {
      state.model = Object.keys(document.stats.models)[0];
    }
    if (isRecord(document.error)) {
      state.isError = true;
      state.answer = '';
      geminiErrorNotice(document.error, state);
    }
  });
}
