import type {
  ConnectorV1Notice,
  ConnectorV1OutputParser,
  ConnectorV1ParsedOutput,
} from '@bullswarm/connectors';

/**
 * The (made-up) NDJSON stream of the `template-agent` CLI this example drives:
 *
 * ```json
 * {"event":"session","id":"s-1","model":"tpl-large"}
 * {"event":"delta","text":"Hel"}
 * {"event":"tool","name":"shell","output":"…"}
 * {"event":"done","usage":{"input":10,"output":2}}
 * {"event":"failure","code":"quota_exhausted","message":"…","resetsAt":"2026-12-01T00:00:00Z"}
 * ```
 *
 * A real connector describes its CLI's real format here. The rules every parser follows:
 * chunks may split lines anywhere; unknown events and non-JSON lines are counted and ignored;
 * only the CLI's own terminal/error events become notices — never the agent's text or tool output.
 */
export function createTemplateOutputParser(): ConnectorV1OutputParser {
  let pending = '';
  let answer = '';
  let total = 0;
  let ignored = 0;
  let isError = false;
  let sessionId: string | undefined;
  let model: string | undefined;
  let usage: { inputTokens?: number; outputTokens?: number } | undefined;
  const kinds: Record<string, number> = {};
  const notices: ConnectorV1Notice[] = [];

  const handle = (line: string) => {
    if (line.trim() === '') return;
    total += 1;
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(line) as Record<string, unknown>;
    } catch {
      ignored += 1;
      return;
    }
    const kind = typeof event.event === 'string' ? event.event : undefined;
    if (kind === undefined) {
      ignored += 1;
      return;
    }
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    if (kind === 'session') {
      sessionId = typeof event.id === 'string' ? event.id : sessionId;
      model = typeof event.model === 'string' ? event.model : model;
    } else if (kind === 'delta' && typeof event.text === 'string') {
      answer += event.text;
    } else if (kind === 'done') {
      const u = event.usage as { input?: number; output?: number } | undefined;
      if (u) usage = { inputTokens: u.input, outputTokens: u.output };
    } else if (kind === 'failure') {
      isError = true;
      const resetsAt = typeof event.resetsAt === 'string' ? Date.parse(event.resetsAt) : Number.NaN;
      notices.push({
        source: 'error-event',
        text: typeof event.message === 'string' ? event.message : '',
        ...(typeof event.code === 'string' ? { code: event.code } : {}),
        ...(Number.isFinite(resetsAt) ? { resetsAt } : {}),
        ...(typeof event.retryAfterSec === 'number' ? { retryAfterMs: event.retryAfterSec * 1000 } : {}),
      });
    }
    // `tool` events (tool output) are counted above and deliberately never read.
  };

  return {
    push(chunk) {
      pending += chunk;
      let index = pending.indexOf('\n');
      while (index !== -1) {
        handle(pending.slice(0, index));
        pending = pending.slice(index + 1);
        index = pending.indexOf('\n');
      }
    },
    end(): ConnectorV1ParsedOutput {
      handle(pending);
      pending = '';
      return {
        answer: isError ? '' : answer,
        events: { total, ignored, kinds: { ...kinds } },
        isError,
        ...(sessionId === undefined ? {} : { sessionId }),
        ...(model === undefined ? {} : { model }),
        ...(usage === undefined ? {} : { usage }),
        notices: [...notices],
        rateLimitEvents: [],
      };
    },
  };
}
