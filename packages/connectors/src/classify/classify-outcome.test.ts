import { describe, expect, it } from 'vitest';
import { createOutputParser, type OutputFormat } from '../parsers';
import type { ConnectorV1ParsedOutput } from '../spec/v1';
import { parseInChunks, readFixture, readNoticeTexts } from '../test-support/fixtures';
import { type ClassifyOptions, classifyOutcome } from './classify-outcome';

const NOW = Date.parse('2026-11-30T12:00:00Z');

function classify(
  format: OutputFormat,
  stdout: string,
  exit: { exitCode?: number | null; signal?: string | null; stderr?: string } = {},
  options: ClassifyOptions = {},
) {
  const parsed = parseInChunks(format, stdout, [17]);
  return classifyOutcome(
    {
      exitCode: exit.exitCode === undefined ? 1 : exit.exitCode,
      signal: exit.signal ?? null,
      parsed,
      stderr: exit.stderr ?? '',
      now: NOW,
      timeZone: 'UTC',
    },
    options,
  );
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('classifyOutcome on captured runs', () => {
  it.each([
    ['claude-stream-json', 'claude/success.jsonl', 0, 'ok', undefined],
    ['claude-stream-json', 'claude/usage-limit.jsonl', 1, 'quota', '2026-07-28T21:40:00.000Z'],
    ['claude-stream-json', 'claude/usage-limit-legacy.jsonl', 1, 'quota', '2025-08-19T15:00:00.000Z'],
    ['claude-stream-json', 'claude/throttle-not-your-limit.jsonl', 1, 'throttle', undefined],
    ['claude-stream-json', 'claude/api-retry-then-429.jsonl', 1, 'throttle', undefined],
    ['claude-stream-json', 'claude/overloaded-529.jsonl', 1, 'throttle', undefined],
    ['claude-stream-json', 'claude/auth-not-logged-in.jsonl', 1, 'auth', undefined],
    ['claude-stream-json', 'claude/auth-api-retry-401.jsonl', 1, 'auth', undefined],
    ['claude-stream-json', 'claude/error-max-turns.jsonl', 1, 'process', undefined],
    ['claude-stream-json', 'claude/false-positive.jsonl', 0, 'ok', undefined],
    ['claude-json', 'claude/output-json-usage-limit.json', 1, 'quota', '2027-07-31T02:00:00.000Z'],
    ['codex-jsonl', 'codex/success.jsonl', 0, 'ok', undefined],
    ['codex-jsonl', 'codex/usage-limit-plus.jsonl', 1, 'quota', '2026-11-30T15:28:00.000Z'],
    ['codex-jsonl', 'codex/usage-limit-dated.jsonl', 1, 'quota', '2026-10-09T23:58:00.000Z'],
    ['codex-jsonl', 'codex/usage-limit-duration.jsonl', 1, 'quota', '2026-12-05T08:09:00.000Z'],
    ['codex-jsonl', 'codex/usage-limit-http-body.jsonl', 1, 'quota', '2026-09-04T17:30:35.000Z'],
    ['codex-jsonl', 'codex/quota-exceeded.jsonl', 1, 'quota', undefined],
    ['codex-jsonl', 'codex/not-logged-in.jsonl', 1, 'auth', undefined],
    ['codex-jsonl', 'codex/refresh-token-expired.jsonl', 1, 'auth', undefined],
    ['codex-jsonl', 'codex/invalidated-oauth-token.jsonl', 1, 'auth', undefined],
    ['codex-jsonl', 'codex/throttle-429.jsonl', 1, 'throttle', undefined],
    ['codex-jsonl', 'codex/reconnect-then-success.jsonl', 0, 'ok', undefined],
    ['codex-jsonl', 'codex/false-positive.jsonl', 0, 'ok', undefined],
    ['gemini-stream-json', 'gemini/stream-success.jsonl', 0, 'ok', undefined],
    ['gemini-stream-json', 'gemini/stream-terminal-quota.jsonl', 1, 'quota', undefined],
    ['gemini-stream-json', 'gemini/stream-retryable-quota.jsonl', 1, 'throttle', undefined],
    ['gemini-json', 'gemini/output-json-success.json', 0, 'ok', undefined],
    ['gemini-json', 'gemini/output-json-error.json', 1, 'quota', '2026-12-01T01:57:00.000Z'],
    ['opencode-json', 'opencode/success.jsonl', 0, 'ok', undefined],
    ['opencode-json', 'opencode/error-401-v1.18.jsonl', 1, 'auth', undefined],
    ['opencode-json', 'opencode/rate-limit-weekly.jsonl', 1, 'quota', '2026-12-01T17:00:00.000Z'],
    ['opencode-json', 'opencode/quota-402.jsonl', 1, 'quota', undefined],
    ['opencode-json', 'opencode/free-rate-limit.jsonl', 1, 'throttle', undefined],
    ['grok-json', 'grok/success.json', 0, 'ok', undefined],
    ['grok-json', 'grok/cancelled.json', 0, 'empty', undefined],
  ] as const)('%s %s (exit %i) → %s', (format, file, exitCode, kind, resetsAt) => {
    const outcome = classify(format, readFixture(file), { exitCode });
    expect(outcome.kind).toBe(kind);
    expect(iso(outcome.resetsAt)).toBe(resetsAt);
    expect(outcome.evidence.length).toBeGreaterThan(0);
  });

  it('prefers the rate_limit_event reset and quotes the human notice as evidence', () => {
    const outcome = classify('claude-stream-json', readFixture('claude/usage-limit.jsonl'));
    expect(outcome.resetsAt).toBe(1785274800_000);
    expect(outcome.evidence).toBe("You've hit your limit · resets 11pm (America/Anchorage)");
    expect(outcome.message).toBe("usage limit: You've hit your limit · resets 11pm (America/Anchorage)");
  });

  it('a throttle names a wait only from its final notice, never from the CLI’s own retries', () => {
    // Codex's reconnect notice quoted a TPM wait the CLI already spent retrying; the final
    // `turn.failed` names none.
    expect(classify('codex-jsonl', readFixture('codex/throttle-429.jsonl')).waitMs).toBeUndefined();
    expect(
      classify('claude-stream-json', readFixture('claude/throttle-not-your-limit.jsonl')).waitMs,
    ).toBeUndefined();
    // Claude Code's api_retry lines carry retry_delay_ms (500, 1000, 2000): not a named wait; the
    // verdict quotes the final result text.
    const retried = classify('claude-stream-json', readFixture('claude/api-retry-then-429.jsonl'));
    expect(retried).toEqual({
      kind: 'throttle',
      message:
        'rate limited: API Error: Request rejected (429) · this may be a temporary capacity issue. If it persists, check https://status.claude.com.',
      evidence:
        'API Error: Request rejected (429) · this may be a temporary capacity issue. If it persists, check https://status.claude.com.',
    });
    // A Retry-After on stderr is the provider's own wait.
    expect(
      classify('claude-stream-json', readFixture('claude/api-retry-then-429.jsonl'), {
        stderr: 'HTTP/1.1 429 Too Many Requests\nRetry-After: 40\n',
      }).waitMs,
    ).toBe(40_000);
    expect(classify('gemini-stream-json', readFixture('gemini/stream-retryable-quota.jsonl')).waitMs).toBe(
      12_500,
    );
  });

  it('parses the JSON error object Gemini CLI 0.61 writes to stderr with -o json (stdout empty)', () => {
    const stderr = readFixture('gemini/stderr-json-not-logged-in-0.61.0.txt');
    expect(classify('gemini-json', '', { exitCode: 1, stderr })).toMatchObject({
      kind: 'auth',
      evidence: expect.stringMatching(
        /^Please set an Auth method in your \/home\/user\/\.gemini\/settings\.json/,
      ),
    });
    const other = JSON.stringify(
      {
        session_id: 's',
        error: { type: 'FatalToolExecutionError', message: 'Tool write_file failed: EACCES', code: 54 },
      },
      null,
      2,
    );
    expect(
      classify('gemini-json', '', { exitCode: 54, stderr: `Loaded cached credentials.\n${other}\n` }),
    ).toMatchObject({
      kind: 'process',
      message: 'exited with code 54: Tool write_file failed: EACCES',
    });
  });

  it('reads failures printed on stderr (gemini, grok)', () => {
    expect(
      classify('gemini-stream-json', '', {
        exitCode: 41,
        stderr: readFixture('gemini/stderr-not-logged-in.txt'),
      }).kind,
    ).toBe('auth');
    expect(
      classify('gemini-stream-json', '', {
        exitCode: 1,
        stderr: readFixture('gemini/stderr-resource-exhausted.txt'),
      }).kind,
    ).toBe('throttle');
    expect(
      classify('grok-json', '', { exitCode: 1, stderr: readFixture('grok/stderr-out-of-credits.txt') }).kind,
    ).toBe('quota');
    expect(
      classify('grok-json', '', { exitCode: 1, stderr: readFixture('grok/stderr-tpm-429.txt') }).kind,
    ).toBe('throttle');
  });
});

describe('shape gating (no false positives)', () => {
  it('an agent whose answer discusses rate limits, 429 and usage limits, exiting 0, is ok', () => {
    for (const [format, file] of [
      ['claude-stream-json', 'claude/false-positive.jsonl'],
      ['codex-jsonl', 'codex/false-positive.jsonl'],
      ['opencode-json', 'opencode/success.jsonl'],
    ] as const) {
      expect(classify(format, readFixture(file), { exitCode: 0 }).kind).toBe('ok');
    }
  });

  it('limit texts in assistant prose or tool output do not classify a crash', () => {
    const outcome = classify(
      'claude-stream-json',
      readFixture('claude/false-positive.jsonl').split('\n').slice(0, 3).join('\n'),
      {
        exitCode: 1,
        stderr: 'Error: connection reset',
      },
    );
    expect(outcome.kind).toBe('process');
    expect(outcome.message).toBe('exited with code 1: Error: connection reset');
  });

  it('an invalidated OAuth token is auth in the provider shapes only', () => {
    for (const text of [
      'Invalidated OAuth token · Please run /login',
      'OAuth token invalidated',
      'invalidated_oauth_token',
    ]) {
      const claude = JSON.stringify({ type: 'result', subtype: 'success', is_error: true, result: text });
      expect(classify('claude-stream-json', claude).kind).toBe('auth');
      const codex = JSON.stringify({ type: 'turn.failed', error: { message: text } });
      expect(classify('codex-jsonl', codex).kind).toBe('auth');
      expect(classify('text', '', { exitCode: 1, stderr: `Error: ${text}` }).kind).toBe('auth');
      // The same words in an answer, or on stdout of a plain-text agent, are not a notice.
      expect(classify('text', `The log said: ${text}`, { exitCode: 0 }).kind).toBe('ok');
      expect(classify('text', `The log said: ${text}`, { exitCode: 2 }).kind).toBe('process');
    }
  });

  it('text format never reads stdout as a notice', () => {
    const outcome = classify('text', "You've hit your usage limit. 429 Too Many Requests", { exitCode: 3 });
    expect(outcome.kind).toBe('process');
  });
});

describe('outcome rules', () => {
  const emptyParsed = (): ConnectorV1ParsedOutput => createOutputParser('text').end();
  const base = { stderr: '', now: NOW, timeZone: 'UTC' };

  it('exit 0 with no answer is empty; exit 0 with a provider error is not ok', () => {
    expect(classifyOutcome({ ...base, exitCode: 0, signal: null, parsed: emptyParsed() }).kind).toBe('empty');
    const errorAtExit0 = classify('claude-stream-json', readFixture('claude/error-max-turns.jsonl'), {
      exitCode: 0,
    });
    expect(errorAtExit0.kind).toBe('process');
    expect(errorAtExit0.message).toBe('provider reported an error: Reached maximum number of turns (2)');
  });

  it('a signal is a process failure unless a notice names a limit', () => {
    const killed = classify('claude-stream-json', readFixture('claude/killed-no-result.jsonl'), {
      exitCode: null,
      signal: 'SIGTERM',
    });
    expect(killed).toMatchObject({ kind: 'process', message: 'killed by SIGTERM' });
    const killedAtWall = classify(
      'claude-stream-json',
      readFixture('claude/usage-limit.jsonl').split('\n').slice(0, 3).join('\n'),
      {
        exitCode: null,
        signal: 'SIGTERM',
      },
    );
    expect(killedAtWall.kind).toBe('quota');
  });

  it('quota outranks auth, auth outranks throttle', () => {
    const run = (lines: string[]) =>
      classify('codex-jsonl', lines.map((message) => JSON.stringify({ type: 'error', message })).join('\n'));
    expect(run(['429 Too Many Requests', "You've hit your usage limit. Try again later."]).kind).toBe(
      'quota',
    );
    expect(run(['429 Too Many Requests', 'unexpected status 401 Unauthorized: Missing bearer']).kind).toBe(
      'auth',
    );
    expect(run(['Not logged in', 'Quota exceeded. Check your plan and billing details.']).kind).toBe('quota');
  });

  it('retries before an unrelated terminal error do not decide the verdict', () => {
    const retries = readFixture('claude/overloaded-529.jsonl').split('\n').slice(0, 3).join('\n');
    const maxTurns = readFixture('claude/error-max-turns.jsonl').split('\n')[1];
    expect(classify('claude-stream-json', `${retries}\n${maxTurns}`).kind).toBe('process');
    const reconnects = JSON.stringify({
      type: 'error',
      message: 'Reconnecting... 1/5 (429 Too Many Requests)',
    });
    const failed = JSON.stringify({
      type: 'turn.failed',
      error: { message: 'sandbox denied: cannot write /etc/hosts' },
    });
    expect(classify('codex-jsonl', `${reconnects}\n${failed}`)).toMatchObject({
      kind: 'process',
      message: 'exited with code 1: sandbox denied: cannot write /etc/hosts',
    });
    // Without a terminal error (killed mid-retry), the retries are all there is.
    expect(classify('claude-stream-json', retries, { exitCode: null, signal: 'SIGTERM' }).kind).toBe(
      'throttle',
    );
  });

  it('a window phrase with no reset is still quota, with no resetsAt', () => {
    const outcome = classify(
      'codex-jsonl',
      JSON.stringify({
        type: 'turn.failed',
        error: { message: "You've hit your usage limit. Try again later." },
      }),
    );
    expect(outcome.kind).toBe('quota');
    expect(outcome.resetsAt).toBeUndefined();
  });

  it('applies the connector auth signatures and exit-code map', () => {
    const parsed = emptyParsed();
    expect(
      classifyOutcome(
        { ...base, exitCode: 1, signal: null, parsed, stderr: 'upstream says: seat suspended' },
        { authSignatures: ['Seat Suspended'] },
      ).kind,
    ).toBe('auth');
    expect(
      classifyOutcome(
        { ...base, exitCode: 41, signal: null, parsed, stderr: 'boom' },
        { exitCodes: { '41': 'auth' } },
      ),
    ).toMatchObject({
      kind: 'auth',
      evidence: 'exit code 41: boom',
    });
    expect(classifyOutcome({ ...base, exitCode: 41, signal: null, parsed, stderr: 'boom' }).kind).toBe(
      'process',
    );
  });

  it('clips long evidence', () => {
    const long = `Quota exceeded. ${'x'.repeat(2000)}`;
    const outcome = classify(
      'codex-jsonl',
      JSON.stringify({ type: 'turn.failed', error: { message: long } }),
    );
    expect(outcome.evidence.length).toBe(400);
  });
});

const WRAPPERS: Record<
  string,
  (
    text: string,
    code?: string,
    status?: number,
  ) => { format: OutputFormat; stdout: string; stderr: string; exitCode: number }
> = {
  claude: (text, _code, status) => ({
    format: 'claude-stream-json',
    stdout: JSON.stringify({
      type: 'result',
      subtype: 'success',
      is_error: true,
      result: text,
      ...(status ? { api_error_status: status } : {}),
    }),
    stderr: '',
    exitCode: 1,
  }),
  codex: (text) => ({
    format: 'codex-jsonl',
    stdout: [
      JSON.stringify({ type: 'error', message: text }),
      JSON.stringify({ type: 'turn.failed', error: { message: text } }),
    ].join('\n'),
    stderr: '',
    exitCode: 1,
  }),
  gemini: (text, code) =>
    code
      ? {
          format: 'gemini-stream-json',
          stdout: JSON.stringify({ type: 'result', status: 'error', error: { type: code, message: text } }),
          stderr: '',
          exitCode: 1,
        }
      : { format: 'gemini-stream-json', stdout: '', stderr: text, exitCode: 1 },
  opencode: (text, code, status) => ({
    format: 'opencode-json',
    stdout:
      code === 'APIError'
        ? JSON.stringify({
            type: 'error',
            sessionID: 's',
            error: { name: code, data: { message: text, statusCode: status } },
          })
        : JSON.stringify({
            type: 'error',
            sessionID: 's',
            error: { type: code ?? 'provider.error', message: text, status },
          }),
    stderr: '',
    exitCode: 1,
  }),
  grok: (text) => ({ format: 'grok-json', stdout: '', stderr: text, exitCode: 1 }),
};

describe.each(Object.keys(WRAPPERS))('every %s notice wording, in its real event shape', (cli) => {
  it.each(readNoticeTexts(cli))('$kind: $text', (sample) => {
    const wrapped = (WRAPPERS[cli] as (typeof WRAPPERS)['claude'])(sample.text, sample.code, sample.status);
    const outcome = classify(wrapped.format, wrapped.stdout, {
      exitCode: wrapped.exitCode,
      stderr: wrapped.stderr,
    });
    expect(outcome.kind).toBe(sample.kind);
    if (sample.kind === 'quota') expect(iso(outcome.resetsAt)).toBe(sample.resetsAt);
    if (sample.waitMs !== undefined) expect(outcome.waitMs).toBe(sample.waitMs);
    // The same text as an agent's final answer, exiting 0, is never a failure.
    const asAnswer = classifyOutcome({
      exitCode: 0,
      signal: null,
      parsed: { ...createOutputParser('text').end(), answer: `Note: ${sample.text}` },
      stderr: '',
      now: NOW,
      timeZone: 'UTC',
    });
    expect(asAnswer.kind).toBe('ok');
  });
});
