import { describe, expect, it } from 'vitest';
import { chunkSizes, parseInChunks, readFixture } from '../test-support/fixtures';
import { createOutputParser, OUTPUT_FORMATS, type OutputFormat } from './index';

type Case = { format: OutputFormat; file: string };

const FIXTURES: Case[] = [
  ...[
    'success.jsonl',
    'usage-limit.jsonl',
    'usage-limit-legacy.jsonl',
    'throttle-not-your-limit.jsonl',
    'overloaded-529.jsonl',
    'auth-not-logged-in.jsonl',
    'auth-api-retry-401.jsonl',
    'error-max-turns.jsonl',
    'false-positive.jsonl',
    'killed-no-result.jsonl',
  ].map((file) => ({ format: 'claude-stream-json' as const, file: `claude/${file}` })),
  ...['output-json-object.json', 'output-json-verbose-array.json', 'output-json-usage-limit.json'].map(
    (file) => ({
      format: 'claude-json' as const,
      file: `claude/${file}`,
    }),
  ),
  ...[
    'success.jsonl',
    'success-2026-09.jsonl',
    'usage-limit-plus.jsonl',
    'usage-limit-dated.jsonl',
    'not-logged-in.jsonl',
    'throttle-429.jsonl',
    'reconnect-then-success.jsonl',
    'false-positive.jsonl',
  ].map((file) => ({ format: 'codex-jsonl' as const, file: `codex/${file}` })),
  ...['stream-success.jsonl', 'stream-terminal-quota.jsonl', 'stream-retryable-quota.jsonl'].map((file) => ({
    format: 'gemini-stream-json' as const,
    file: `gemini/${file}`,
  })),
  ...['output-json-success.json', 'output-json-error.json'].map((file) => ({
    format: 'gemini-json' as const,
    file: `gemini/${file}`,
  })),
  ...['success.jsonl', 'error-401-v1.18.jsonl', 'rate-limit-weekly.jsonl', 'quota-402.jsonl'].map((file) => ({
    format: 'opencode-json' as const,
    file: `opencode/${file}`,
  })),
  ...['success.json', 'cancelled.json'].map((file) => ({
    format: 'grok-json' as const,
    file: `grok/${file}`,
  })),
  { format: 'text', file: 'text/echo.txt' },
];

describe('streaming parsers', () => {
  it.each(FIXTURES)('$file ($format) parses the same whatever the chunk boundaries', ({ format, file }) => {
    const text = readFixture(file);
    const whole = parseInChunks(format, text);
    for (const seed of [1, 7, 42]) expect(parseInChunks(format, text, chunkSizes(seed))).toEqual(whole);
    expect(parseInChunks(format, text, [1])).toEqual(whole);
    // CRLF line ends parse the same as LF.
    if (format !== 'text') expect(parseInChunks(format, text.replaceAll('\n', '\r\n'), [3])).toEqual(whole);
  });

  it('knows every format the schema names', () => {
    for (const format of OUTPUT_FORMATS) expect(typeof createOutputParser(format).push).toBe('function');
  });

  it('refuses push() after end()', () => {
    const parser = createOutputParser('claude-stream-json');
    parser.end();
    expect(() => parser.push('{}\n')).toThrow(/after end/);
  });
});

describe('claude stream-json', () => {
  it('takes the answer from the last result and reads init, usage and cost', () => {
    const parsed = parseInChunks('claude-stream-json', readFixture('claude/success.jsonl'));
    expect(parsed.answer).toBe("Hello! I'm ready to help.");
    expect(parsed.isError).toBe(false);
    expect(parsed.sessionId).toBe('751b5a53-bc44-4484-943d-8851ccfdfda1');
    expect(parsed.model).toBe('claude-opus-4-5-20251101');
    expect(parsed.usage).toEqual({
      inputTokens: 2,
      outputTokens: 40,
      cachedInputTokens: 14135,
      costUsd: 0.08424875,
    });
    expect(parsed.events).toEqual({ total: 3, ignored: 0, kinds: { system: 1, assistant: 1, result: 1 } });
    expect(parsed.notices).toEqual([]);
  });

  it('turns a usage-limit run into notices: rate_limit_event rejected, synthetic message, error result', () => {
    const parsed = parseInChunks('claude-stream-json', readFixture('claude/usage-limit.jsonl'));
    expect(parsed.answer).toBe('');
    expect(parsed.isError).toBe(true);
    expect(parsed.rateLimitEvents).toEqual([
      { status: 'rejected', rateLimitType: 'five_hour', resetsAt: 1785274800_000 },
    ]);
    expect(parsed.notices.map((n) => [n.source, n.text, n.status, n.code])).toEqual([
      ['rate-limit-event', 'rate limit rejected (five_hour)', undefined, 'rejected'],
      [
        'synthetic-message',
        "You've hit your limit · resets 11pm (America/Anchorage)",
        undefined,
        'rate_limit',
      ],
      ['result-error', "You've hit your limit · resets 11pm (America/Anchorage)", 429, 'success'],
    ]);
  });

  it('reads api_retry notices with their delay and an error_* result without a result key', () => {
    const retry = parseInChunks('claude-stream-json', readFixture('claude/auth-api-retry-401.jsonl'));
    expect(retry.notices[0]).toEqual({
      source: 'retry-event',
      text: 'API retry 1/2: authentication_failed (401)',
      status: 401,
      code: 'authentication_failed',
      retryAfterMs: 592,
    });
    const maxTurns = parseInChunks('claude-stream-json', readFixture('claude/error-max-turns.jsonl'));
    expect(maxTurns.isError).toBe(true);
    expect(maxTurns.notices).toEqual([
      { source: 'result-error', text: 'Reached maximum number of turns (2)', code: 'error_max_turns' },
    ]);
  });

  it('never turns assistant prose or tool output into notices', () => {
    const parsed = parseInChunks('claude-stream-json', readFixture('claude/false-positive.jsonl'));
    expect(parsed.notices).toEqual([]);
    expect(parsed.answer).toMatch(/^The handler treats/);
    expect(parsed.events.kinds).toEqual({ system: 1, assistant: 1, user: 1, result: 1 });
  });

  it('counts non-JSON lines and unknown event types as ignored', () => {
    const parsed = parseInChunks(
      'claude-stream-json',
      'Warning: something on stdout\n{"type":"stream_event","event":{}}\n[1,2]\n{"no_type":true}\n{"type":"result","subtype":"success","is_error":false,"result":"done"}',
    );
    expect(parsed.answer).toBe('done');
    expect(parsed.events.total).toBe(5);
    expect(parsed.events.ignored).toBe(3);
    expect(parsed.events.kinds).toEqual({ stream_event: 1, result: 1 });
  });

  it.each([
    'claude-stream-json',
    'claude-json',
    'codex-jsonl',
    'gemini-stream-json',
    'opencode-json',
  ] as const)('%s counts every line, and a non-JSON, array or typeless line as ignored', (format) => {
    const parsed = parseInChunks(
      format,
      'Warning: on stdout\n{"type":"novel_event"}\n[1,2]\n{"no_type":true}\n',
      [5],
    );
    expect(parsed.events).toEqual({ total: 4, ignored: 3, kinds: { novel_event: 1 } });
    expect(parsed.answer).toBe('');
  });

  it.each(['gemini-json', 'grok-json'] as const)(
    '%s counts one response, or one ignored event when stdout is not a JSON object',
    (format) => {
      expect(parseInChunks(format, 'Error: not JSON\n').events).toEqual({ total: 1, ignored: 1, kinds: {} });
      expect(parseInChunks(format, '{}').events).toEqual({ total: 1, ignored: 0, kinds: { response: 1 } });
      expect(parseInChunks(format, '  \n').events).toEqual({ total: 0, ignored: 0, kinds: {} });
    },
  );

  it('has no answer when killed before the result line', () => {
    const parsed = parseInChunks('claude-stream-json', readFixture('claude/killed-no-result.jsonl'));
    expect(parsed.answer).toBe('');
    expect(parsed.isError).toBe(false);
  });
});

describe('claude --output-format json', () => {
  it('accepts one object or the --verbose array, taking the last result', () => {
    const object = parseInChunks('claude-json', readFixture('claude/output-json-object.json'));
    const array = parseInChunks('claude-json', readFixture('claude/output-json-verbose-array.json'));
    expect(object.answer).toBe("Hello! I'm ready to help.");
    expect(array.answer).toBe("Hello! I'm ready to help.");
    expect(array.model).toBe('claude-opus-4-5-20251101');
    expect(array.events.kinds).toEqual({ system: 1, assistant: 1, result: 1 });
  });

  it('falls back to lines when stdout is NDJSON', () => {
    const parsed = parseInChunks('claude-json', readFixture('claude/success.jsonl'));
    expect(parsed.answer).toBe("Hello! I'm ready to help.");
  });
});

describe('codex exec --json', () => {
  it('takes the last agent_message and the turn usage', () => {
    const parsed = parseInChunks('codex-jsonl', readFixture('codex/success.jsonl'));
    expect(parsed.answer).toBe('Yep — there’s a `README.md` in the repository root.');
    expect(parsed.sessionId).toBe('0199a213-81c0-7800-8aa1-bbab2a035a53');
    expect(parsed.usage).toEqual({ inputTokens: 24763, cachedInputTokens: 24448, outputTokens: 122 });
    expect(parsed.notices).toEqual([]);
    expect(parsed.events.kinds['item.completed']).toBe(4);
  });

  it('reads newer usage fields', () => {
    const parsed = parseInChunks('codex-jsonl', readFixture('codex/success-2026-09.jsonl'));
    expect(parsed.usage).toEqual({
      inputTokens: 13731,
      cachedInputTokens: 11776,
      outputTokens: 9,
      reasoningTokens: 0,
    });
  });

  it('marks turn.failed as the terminal error and keeps error events as notices', () => {
    const parsed = parseInChunks('codex-jsonl', readFixture('codex/not-logged-in.jsonl'));
    expect(parsed.isError).toBe(true);
    expect(parsed.notices.map((n) => n.source)).toEqual(['error-event', 'error-event', 'result-error']);
  });

  it('ignores command output', () => {
    const parsed = parseInChunks('codex-jsonl', readFixture('codex/false-positive.jsonl'));
    expect(parsed.notices).toEqual([]);
    expect(parsed.isError).toBe(false);
  });
});

describe('gemini', () => {
  it('concatenates assistant deltas in stream-json', () => {
    const parsed = parseInChunks('gemini-stream-json', readFixture('gemini/stream-success.jsonl'));
    expect(parsed.answer).toBe('Hello there!');
    expect(parsed.model).toBe('auto-gemini-3');
    expect(parsed.usage).toEqual({ inputTokens: 20846, outputTokens: 62, cachedInputTokens: 8089 });
  });

  it('reads result status error with its error type', () => {
    const parsed = parseInChunks('gemini-stream-json', readFixture('gemini/stream-terminal-quota.jsonl'));
    expect(parsed.isError).toBe(true);
    expect(parsed.notices).toEqual([
      {
        source: 'result-error',
        text: 'You have exhausted your daily quota on this model.',
        code: 'TerminalQuotaError',
      },
    ]);
  });

  it('reads the json document', () => {
    const ok = parseInChunks('gemini-json', readFixture('gemini/output-json-success.json'));
    expect(ok.answer).toBe('The build passes.');
    expect(ok.model).toBe('gemini-2.5-pro');
    const error = parseInChunks('gemini-json', readFixture('gemini/output-json-error.json'));
    expect(error.isError).toBe(true);
    expect(error.notices[0]?.status).toBe(429);
  });
});

describe('opencode run --format json', () => {
  it('answers with the last step that produced text and sums usage', () => {
    const parsed = parseInChunks('opencode-json', readFixture('opencode/success.jsonl'));
    expect(parsed.answer).toBe('OK');
    expect(parsed.sessionId).toBe('ses_abc');
    expect(parsed.usage).toEqual({
      inputTokens: 14752,
      outputTokens: 31,
      reasoningTokens: 46,
      cachedInputTokens: 0,
      costUsd: 0,
    });
    expect(parsed.notices).toEqual([]);
  });

  it('reads both error eras', () => {
    const old = parseInChunks('opencode-json', readFixture('opencode/error-401-v1.18.jsonl'));
    expect(old.notices).toEqual([
      { source: 'error-event', text: 'Invalid Authentication', status: 401, code: 'APIError' },
    ]);
    const newer = parseInChunks('opencode-json', readFixture('opencode/rate-limit-weekly.jsonl'));
    expect(newer.notices[0]).toMatchObject({ code: 'provider.rate-limit', status: 429 });
    expect(newer.isError).toBe(true);
  });
});

describe('grok json and text', () => {
  it('reads text and stopReason', () => {
    const ok = parseInChunks('grok-json', readFixture('grok/success.json'));
    expect(ok.answer).toBe('Added the missing null check in parser.ts.');
    expect(ok.notices).toEqual([]);
    const cancelled = parseInChunks('grok-json', readFixture('grok/cancelled.json'));
    expect(cancelled.answer).toBe('');
    expect(cancelled.notices).toEqual([
      { source: 'stop-reason', text: 'stopReason Cancelled', code: 'Cancelled' },
    ]);
  });

  it('text: the whole stdout, trimmed, is the answer', () => {
    const parsed = parseInChunks('text', readFixture('text/echo.txt'), [2]);
    expect(parsed.answer).toBe('write the release notes');
    expect(parsed.events.total).toBe(1);
  });
});
