import type { ConnectorV1OutputParser } from '../spec/v1';
import { asNumber, asString, compact, createEventLineParser, isRecord } from './parse-state';

/**
 * Codex `exec --json` (JSONL; openai/codex `codex-rs/exec/src/exec_events.rs`). The answer is
 * the last `agent_message` item; `turn.failed` is the terminal error; `error` events (often
 * `Reconnecting... n/5`) and `error` items are notices. Command output items are never read.
 */
export function createCodexJsonlParser(): ConnectorV1OutputParser {
  return createEventLineParser((event, type, state) => {
    switch (type) {
      case 'thread.started':
        state.sessionId = asString(event.thread_id) ?? state.sessionId;
        return;
      case 'item.completed': {
        const item = isRecord(event.item) ? event.item : undefined;
        if (!item) return;
        if (item.type === 'agent_message') {
          state.answer = asString(item.text) ?? state.answer;
        } else if (item.type === 'error') {
          state.notices.push({ source: 'error-event', text: asString(item.message) ?? '' });
        }
        return;
      }
      case 'turn.completed': {
        const usage = isRecord(event.usage) ? event.usage : undefined;
        if (usage) {
          state.usage = compact({
            inputTokens: asNumber(usage.input_tokens),
            cachedInputTokens: asNumber(usage.cached_input_tokens),
            outputTokens: asNumber(usage.output_tokens),
            reasoningTokens: asNumber(usage.reasoning_output_tokens),
          });
        }
        state.isError = false;
        return;
      }
      case 'turn.failed': {
        const error = isRecord(event.error) ? event.error : undefined;
        state.isError = true;
        state.notices.push({ source: 'result-error', text: asString(error?.message) ?? '' });
        return;
      }
      case 'error':
        state.notices.push({ source: 'error-event', text: asString(event.message) ?? '' });
        return;
      default:
        return;
    }
  });
}
