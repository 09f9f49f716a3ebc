import { randomUUID } from 'node:crypto';
import type { SimFormat } from './sim-args';
import {
  CLAUDE_AUTH_TEXT,
  CLAUDE_THROTTLE_TEXT,
  CODEX_AUTH_TEXT,
  claudeLimitText,
  codexLimitText,
} from './sim-texts';

/** Where an emitter writes. */
export type SimOutput = { stdout(text: string): void; stderr(text: string): void };

/** The context of one sim run an emitter needs. */
export type EmitterContext = {
  readonly out: SimOutput;
  readonly model: string;
  readonly cwd: string;
  readonly now: number;
  readonly timeZone: string;
};

/**
 * One agent CLI's output shapes. Every method writes complete events; none exits.
 */
export type SimEmitter = {
  start(): void;
  progress(text: string): void;
  /** The partial output of a stalled/crashing run. */
  partial(): void;
  answer(text: string): void;
  usageLimit(window: 'five_hour' | 'weekly', resetsAt: number): void;
  throttle(waitSec: number | undefined): void;
  auth(): void;
  empty(): void;
  probe404(): void;
  probeError(): void;
};

const line = (out: SimOutput, event: unknown) => out.stdout(`${JSON.stringify(event)}\n`);

/**
 * Claude Code `-p --output-format stream-json --verbose` (research §1.2–1.4): system/init,
 * rate_limit_event, assistant, result; limits as `rate_limit_event` rejected + synthetic assistant
 * + `is_error` result with `api_error_status` (2.1.220 capture shape).
 */
function claudeEmitter(context: EmitterContext): SimEmitter {
  const { out, model } = context;
  const sessionId = randomUUID();
  const startedAt = Date.now();
  const assistant = (text: string, extra: Record<string, unknown> = {}, messageModel = model) =>
    line(out, {
      type: 'assistant',
      message: {
        id: `msg_sim_${randomUUID().slice(0, 8)}`,
        type: 'message',
        role: 'assistant',
        model: messageModel,
        content: [{ type: 'text', text }],
        stop_reason: null,
        usage: { input_tokens: 3, output_tokens: Math.max(1, Math.ceil(text.length / 4)) },
      },
      parent_tool_use_id: null,
      session_id: sessionId,
      uuid: randomUUID(),
      ...extra,
    });
  const result = (fields: Record<string, unknown>) =>
    line(out, {
      type: 'result',
      subtype: 'success',
      duration_ms: Date.now() - startedAt,
      duration_api_ms: Date.now() - startedAt,
      num_turns: 1,
      session_id: sessionId,
      total_cost_usd: 0,
      usage: {
        input_tokens: 3,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 1,
      },
      uuid: randomUUID(),
      ...fields,
    });
  const errorResult = (text: string, status: number | undefined) =>
    result({
      is_error: true,
      result: text,
      ...(status === undefined ? {} : { api_error_status: status }),
      terminal_reason: 'api_error',
      stop_reason: 'stop_sequence',
    });
  return {
    start() {
      line(out, {
        type: 'system',
        subtype: 'init',
        cwd: context.cwd,
        session_id: sessionId,
        tools: ['Task', 'Bash', 'Read', 'Write', 'Edit'],
        mcp_servers: [],
        model,
        permissionMode: 'default',
        apiKeySource: 'none',
        claude_code_version: '2.1.220-sim',
        uuid: randomUUID(),
      });
      line(out, {
        type: 'rate_limit_event',
        rate_limit_info: {
          status: 'allowed',
          resetsAt: Math.floor((context.now + 5 * 3_600_000) / 1000),
          rateLimitType: 'five_hour',
          overageStatus: 'rejected',
          isUsingOverage: false,
        },
        session_id: sessionId,
        uuid: randomUUID(),
      });
    },
    progress(text) {
      assistant(text);
    },
    partial() {
      assistant('Let me look at the repository first.');
    },
    answer(text) {
      assistant(text);
      result({ is_error: false, result: text, stop_reason: 'end_turn' });
    },
    usageLimit(window, resetsAt) {
      const text = claudeLimitText(window, resetsAt, context.now, context.timeZone);
      line(out, {
        type: 'rate_limit_event',
        rate_limit_info: {
          status: 'rejected',
          resetsAt: Math.floor(resetsAt / 1000),
          rateLimitType: window === 'weekly' ? 'seven_day' : 'five_hour',
          overageStatus: 'rejected',
          overageDisabledReason: 'org_level_disabled_until',
          isUsingOverage: false,
        },
        session_id: sessionId,
        uuid: randomUUID(),
      });
      assistant(text, { error: 'rate_limit', is_api_error_message: true }, '<synthetic>');
      errorResult(text, 429);
    },
    throttle(waitSec) {
      // The CLI's own retry first (its retry_delay_ms is spent by the CLI, never a named wait),
      // then the final result; a named wait is in the final text.
      line(out, {
        type: 'system',
        subtype: 'api_retry',
        attempt: 1,
        max_retries: 10,
        retry_delay_ms: 500,
        error_status: 429,
        error: 'rate_limit',
        session_id: sessionId,
        uuid: randomUUID(),
      });
      const text =
        waitSec === undefined ? CLAUDE_THROTTLE_TEXT : `${CLAUDE_THROTTLE_TEXT} · try again in ${waitSec}s`;
      assistant(text, { error: 'rate_limit', is_api_error_message: true }, '<synthetic>');
      errorResult(text, 429);
    },
    auth() {
      assistant(
        CLAUDE_AUTH_TEXT,
        { error: 'authentication_failed', is_api_error_message: true },
        '<synthetic>',
      );
      errorResult(CLAUDE_AUTH_TEXT, undefined);
    },
    empty() {
      result({ is_error: false, result: '', stop_reason: 'end_turn' });
    },
    probe404() {
      const text = `There's an issue with the selected model (${model}). It may not exist or you may not have access to it. Run --model to pick a different model.`;
      assistant(text, { error: 'invalid_request', is_api_error_message: true }, '<synthetic>');
      errorResult(text, 404);
    },
    probeError() {
      errorResult(
        'API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_sim"}',
        500,
      );
    },
  };
}

/**
 * Codex `exec --json` (openai/codex exec_events.rs; research §2.2–2.3): thread.started,
 * turn.started, item.completed, turn.completed; failures as `error` then `turn.failed`.
 */
function codexEmitter(context: EmitterContext): SimEmitter {
  const { out, model } = context;
  let item = 0;
  const completed = (fields: Record<string, unknown>) => {
    line(out, { type: 'item.completed', item: { id: `item_${item}`, ...fields } });
    item += 1;
  };
  const fail = (errors: readonly string[], final: string) => {
    for (const message of errors) line(out, { type: 'error', message });
    line(out, { type: 'turn.failed', error: { message: final } });
  };
  return {
    start() {
      line(out, { type: 'thread.started', thread_id: randomUUID() });
      line(out, { type: 'turn.started' });
    },
    progress(text) {
      completed({ type: 'reasoning', text: `**${text}**` });
    },
    partial() {
      completed({ type: 'reasoning', text: '**Inspecting the repository**' });
    },
    answer(text) {
      completed({ type: 'agent_message', text });
      line(out, {
        type: 'turn.completed',
        usage: {
          input_tokens: 1200,
          cached_input_tokens: 0,
          output_tokens: Math.max(1, Math.ceil(text.length / 4)),
        },
      });
    },
    usageLimit(_window, resetsAt) {
      const text = codexLimitText(resetsAt, context.now, context.timeZone);
      fail([text], text);
    },
    throttle(waitSec) {
      const wait = waitSec === undefined ? '' : ` Please try again in ${waitSec}s.`;
      const cause = `Rate limit reached for ${model} in organization org-sim on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200.${wait}`;
      // The reconnect notice's wait was spent by the CLI's own retries; a named wait is in the
      // final `turn.failed`.
      fail(
        [`Reconnecting... 1/5 (stream disconnected before completion: ${cause})`],
        `exceeded retry limit, last status: 429 Too Many Requests${waitSec === undefined ? '' : `; try again in ${waitSec}s`}`,
      );
    },
    auth() {
      fail(
        [`Reconnecting... 1/5 (${CODEX_AUTH_TEXT})`, `Reconnecting... 2/5 (${CODEX_AUTH_TEXT})`],
        CODEX_AUTH_TEXT,
      );
    },
    empty() {
      line(out, {
        type: 'turn.completed',
        usage: { input_tokens: 1200, cached_input_tokens: 0, output_tokens: 0 },
      });
    },
    probe404() {
      fail(
        [],
        `unexpected status 404 Not Found: {"error":{"message":"The model \`${model}\` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`,
      );
    },
    probeError() {
      fail(
        [],
        'unexpected status 500 Internal Server Error: {"error":{"message":"An error occurred while processing your request.","type":"server_error"}}',
      );
    },
  };
}

/**
 * Plain text (the `echo` connector): the answer on stdout; progress and failures on stderr. The
 * usage-limit line is Claude 1.0.x's `Claude AI usage limit reached|<epoch seconds>`.
 */
function textEmitter(context: EmitterContext): SimEmitter {
  const { out, model } = context;
  return {
    start() {},
    progress(text) {
      out.stderr(`sim: ${text}\n`);
    },
    partial() {
      out.stdout('sim: working');
    },
    answer(text) {
      out.stdout(`${text}\n`);
    },
    usageLimit(_window, resetsAt) {
      out.stderr(`Claude AI usage limit reached|${Math.floor(resetsAt / 1000)}\n`);
    },
    throttle(waitSec) {
      out.stderr(`429 Too Many Requests${waitSec === undefined ? '' : `\nRetry-After: ${waitSec}`}\n`);
    },
    auth() {
      out.stderr('401 Unauthorized: Invalid API key\n');
    },
    empty() {},
    probe404() {
      out.stderr(`404 Not Found: model "${model}" does not exist\n`);
    },
    probeError() {
      out.stderr('500 Internal Server Error\n');
    },
  };
}

export function createSimEmitter(format: SimFormat, context: EmitterContext): SimEmitter {
  if (format === 'claude') return claudeEmitter(context);
  if (format === 'codex') return codexEmitter(context);
  return textEmitter(context);
}
