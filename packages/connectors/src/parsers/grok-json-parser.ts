import type { ConnectorV1OutputParser } from '../spec/v1';
import { asString, createJsonDocumentParser, isRecord } from './parse-state';

/**
 * xAI Grok Build `grok -p … --output-format json`: one document
 * `{text, stopReason, sessionId, requestId, thought?}` (research §3.3, verified 0.2.93). The answer
 * is `text`. A `stopReason` other than `EndTurn` (e.g. `Cancelled` at a permission gate) is a
 * `stop-reason` notice. An `error` member (string or `{message}`) is read as a provider error —
 * UNCERTAIN: no capture of Grok's JSON error shape was found; its errors are also read from stderr.
 */
export function createGrokJsonParser(): ConnectorV1OutputParser {
  return createJsonDocumentParser((document, state) => {
    state.sessionId = asString(document.sessionId);
    state.answer = asString(document.text) ?? '';
    const stopReason = asString(document.stopReason);
    if (stopReason !== undefined && stopReason !== 'EndTurn') {
      state.notices.push({ source: 'stop-reason', text: `stopReason ${stopReason}`, code: stopReason });
    }
    const error = document.error;
    if (error !== undefined && error !== null) {
      state.isError = true;
      state.answer = '';
      const message =
        typeof error === 'string' ? error : isRecord(error) ? (asString(error.message) ?? '') : '';
      state.notices.push({ source: 'result-error', text: message });
    }
  });
}
