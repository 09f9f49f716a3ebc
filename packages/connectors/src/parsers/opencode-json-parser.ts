import type { ConnectorV1OutputParser } from '../spec/v1';
import { asNumber, asString, compact, createEventLineParser, isRecord } from './parse-state';

/**
 * opencode `run --format json` (NDJSON `{type,timestamp,sessionID,part}`; research §3.2):
 * `step_start`, `text`, `tool_use`, `step_finish`, `error`. There is no result event: the answer
 * is the text of the LAST step that produced text (earlier steps' narration such as "Let me look
 * at the file" is not the answer). Errors arrive on stdout as `error` events, in two eras:
 * `error{name,data{message,statusCode}}` (1.18.x) and `error{type,message,status}` (newer).
 */
export function createOpencodeJsonParser(): ConnectorV1OutputParser {
  let stepText = '';
  return createEventLineParser((event, type, state) => {
    state.sessionId = asString(event.sessionID) ?? state.sessionId;
    const part = isRecord(event.part) ? event.part : undefined;
    switch (type) {
      case 'step_start':
        stepText = '';
        return;
      case 'text': {
        stepText += asString(part?.text) ?? '';
        state.answer = stepText;
        return;
      }
      case 'step_finish': {
        const tokens = part && isRecord(part.tokens) ? part.tokens : undefined;
        const cache = tokens && isRecord(tokens.cache) ? tokens.cache : undefined;
        const previous = state.usage ?? {};
        const add = (a: number | undefined, b: number | undefined) =>
          a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
        state.usage = compact({
          inputTokens: add(previous.inputTokens, asNumber(tokens?.input)),
          outputTokens: add(previous.outputTokens, asNumber(tokens?.output)),
          reasoningTokens: add(previous.reasoningTokens, asNumber(tokens?.reasoning)),
          cachedInputTokens: add(previous.cachedInputTokens, asNumber(cache?.read)),
          costUsd: add(previous.costUsd, asNumber(part?.cost)),
        });
        return;
      }
      case 'error': {
        const error = isRecord(event.error) ? event.error : {};
        const data = isRecord(error.data) ? error.data : {};
        state.isError = true;
        state.answer = '';
        state.notices.push(
          compact({
            source: 'error-event' as const,
            text: asString(data.message) ?? asString(error.message) ?? '',
            status: asNumber(data.statusCode) ?? asNumber(error.status),
            code: asString(error.type) ?? asString(error.name),
          }),
        );
        return;
      }
      default:
        return;
    }
  });
}
