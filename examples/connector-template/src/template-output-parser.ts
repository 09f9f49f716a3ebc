import { type ConnectorV1OutputParser, createEventLineParser } from '@bullswarm/connectors';

/**
 * The (made-up) NDJSON stream of the `template-agent` CLI this package drives, one JSON event a line:
 *
 * ```json
 * {"type":"session","id":"s-1","model":"template-large"}
 * {"type":"delta","text":"Hel"}
 * {"type":"tool","name":"shell","output":"…"}
 * {"type":"done","usage":{"input":10,"output":2}}
 * {"type":"failure","code":"quota_exhausted","message":"…","resetsAt":"2026-12-01T00:00:00Z"}
 * ```
 *
 * `createEventLineParser` (from `@bullswarm/connectors`) does the stream work every line format
 * needs: chunks split anywhere, one JSON object a line, events counted by `type`, non-JSON lines and
 * type-less objects counted as ignored. The handler reads what this CLI's events mean. Only the
 * CLI's own terminal and error events become notices — never the agent's text or tool output.
 */
export function createTemplateOutputParser(): ConnectorV1OutputParser {
  return createEventLineParser((event, type, state) => {
    if (type === 'session') {
      if (typeof event.id === 'string') state.sessionId = event.id;
      if (typeof event.model === 'string') state.model = event.model;
    } else if (type === 'delta' && typeof event.text === 'string' && !state.isError) {
      state.answer += event.text;
    } else if (type === 'done') {
      const usage = event.usage as { input?: number; output?: number } | undefined;
      if (usage) state.usage = { inputTokens: usage.input, outputTokens: usage.output };
    } else if (type === 'failure') {
      state.isError = true;
      state.answer = '';
      const resetsAt = typeof event.resetsAt === 'string' ? Date.parse(event.resetsAt) : Number.NaN;
      state.notices.push({
        source: 'error-event',
        text: typeof event.message === 'string' ? event.message : '',
        ...(typeof event.code === 'string' ? { code: event.code } : {}),
        ...(Number.isFinite(resetsAt) ? { resetsAt } : {}),
        ...(typeof event.retryAfterSec === 'number' ? { retryAfterMs: event.retryAfterSec * 1000 } : {}),
      });
    }
    // `tool` events (tool output) are counted and deliberately never read.
  });
}
