import type {
  ConnectorV1Notice,
  ConnectorV1OutputParser,
  ConnectorV1ParsedOutput,
  ConnectorV1RateLimitEvent,
  ConnectorV1Usage,
} from '../spec/v1';

/** Mutable accumulator shared by the format handlers. */
export type ParseState = {
  answer: string;
  total: number;
  ignored: number;
  kinds: Record<string, number>;
  isError: boolean;
  sessionId?: string;
  usage?: ConnectorV1Usage;
  model?: string;
  notices: ConnectorV1Notice[];
  rateLimitEvents: ConnectorV1RateLimitEvent[];
};

export function createParseState(): ParseState {
  return { answer: '', total: 0, ignored: 0, kinds: {}, isError: false, notices: [], rateLimitEvents: [] };
}

export function countKind(state: ParseState, kind: string): void {
  state.kinds[kind] = (state.kinds[kind] ?? 0) + 1;
}

export function finishState(state: ParseState): ConnectorV1ParsedOutput {
  return {
    answer: state.answer,
    events: { total: state.total, ignored: state.ignored, kinds: { ...state.kinds } },
    isError: state.isError,
    ...(state.sessionId === undefined ? {} : { sessionId: state.sessionId }),
    ...(state.usage === undefined ? {} : { usage: state.usage }),
    ...(state.model === undefined ? {} : { model: state.model }),
    notices: [...state.notices],
    rateLimitEvents: [...state.rateLimitEvents],
  };
}

/** A JSON object or undefined (arrays, primitives and malformed text are not events). */
export function parseJsonObject(line: string): Record<string, unknown> | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Epoch seconds or milliseconds → milliseconds (values below 1e12 are seconds). */
export function epochToMs(value: unknown): number | undefined {
  const n = asNumber(value);
  if (n === undefined) return undefined;
  return n < 1e12 ? n * 1000 : n;
}

/** Drops undefined fields so parsed output compares cleanly. */
export function compact<T extends Record<string, unknown>>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = v;
  return out as T;
}

/**
 * A line-oriented streaming parser: splits chunks on `\n` (a line may span chunks), hands every
 * non-empty line to `onLine`, and calls `onEnd` once after the last partial line.
 */
export function createLineParser(
  onLine: (line: string, state: ParseState) => void,
  onEnd?: (state: ParseState) => void,
): ConnectorV1OutputParser {
  const state = createParseState();
  let pending = '';
  let ended = false;
  const handle = (raw: string) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    onLine(line, state);
  };
  return {
    push(chunk: string) {
      if (ended) throw new Error('output parser: push() after end()');
      pending += chunk;
      let index = pending.indexOf('\n');
      while (index !== -1) {
        handle(pending.slice(0, index));
        pending = pending.slice(index + 1);
        index = pending.indexOf('\n');
      }
    },
    end() {
      if (!ended) {
        ended = true;
        handle(pending);
        pending = '';
        onEnd?.(state);
      }
      return finishState(state);
    },
  };
}

/** What a JSON-event parser does with one counted event (its `type` is a string). */
export type EventHandler = (event: Record<string, unknown>, type: string, state: ParseState) => void;

/**
 * Counts one event: `total`, then `ignored` when it is not a JSON object with a string `type`
 * (a non-JSON line, an array, a typeless object), else one more of its kind, which `onEvent` reads.
 */
export function countEvent(value: unknown, state: ParseState, onEvent: EventHandler): void {
  state.total += 1;
  if (!isRecord(value) || typeof value.type !== 'string') {
    state.ignored += 1;
    return;
  }
  countKind(state, value.type);
  onEvent(value, value.type, state);
}

/** A line parser for JSON events `{"type": …}`, one a line (NDJSON, JSONL), counted by {@link countEvent}. */
export function createEventLineParser(onEvent: EventHandler): ConnectorV1OutputParser {
  return createLineParser((line, state) => countEvent(parseJsonObject(line), state, onEvent));
}

/**
 * A parser for stdout that is one JSON object: one `response` event, or one ignored event when it
 * is not a JSON object; empty stdout is no event.
 */
export function createJsonDocumentParser(
  onDocument: (document: Record<string, unknown>, state: ParseState) => void,
): ConnectorV1OutputParser {
  return createDocumentParser((text, state) => {
    const trimmed = text.trim();
    if (trimmed === '') return;
    state.total += 1;
    const document = parseJsonObject(trimmed);
    if (!document) {
      state.ignored += 1;
      return;
    }
    countKind(state, 'response');
    onDocument(document, state);
  });
}

/** A parser that buffers the whole stdout and parses it at `end()` (single-document formats). */
export function createDocumentParser(
  onDocument: (text: string, state: ParseState) => void,
): ConnectorV1OutputParser {
  const state = createParseState();
  const chunks: string[] = [];
  let ended = false;
  return {
    push(chunk: string) {
      if (ended) throw new Error('output parser: push() after end()');
      chunks.push(chunk);
    },
    end() {
      if (!ended) {
        ended = true;
        onDocument(chunks.join(''), state);
      }
      return finishState(state);
    },
  };
}
