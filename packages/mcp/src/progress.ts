import { InvalidEnvironmentError } from '@bullswarm/store';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** The least time between two progress notifications without news, by default (ms). */
export const DEFAULT_PROGRESS_INTERVAL_MS = 15_000;

/** The variable that sets the heartbeat of `run` progress (seconds from 0.01 to 3600; default 15). */
export const PROGRESS_SEC = 'BULLSWARM_MCP_PROGRESS_SEC';

/** The range {@link resolveProgressIntervalMs} accepts, in seconds. */
export const PROGRESS_SEC_RANGE = { min: 0.01, max: 3600 } as const;

/**
 * The heartbeat interval of `run` progress from `BULLSWARM_MCP_PROGRESS_SEC`, in ms; undefined
 * when unset or empty (the default, 15 s, applies). Fractions are accepted so tests can shorten it.
 *
 * @throws InvalidEnvironmentError naming the variable and the range.
 */
export function resolveProgressIntervalMs(
  env: Readonly<Record<string, string | undefined>>,
): number | undefined {
  const raw = env[PROGRESS_SEC];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw.trim());
  const { min, max } = PROGRESS_SEC_RANGE;
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(value >= min && value <= max)) {
    throw new InvalidEnvironmentError({
      variable: PROGRESS_SEC,
      value: raw,
      expected: `a number of seconds from ${min} to ${max}, such as 15`,
    });
  }
  return Math.round(value * 1000);
}

/** Progress of one tool call: news as it happens, a heartbeat while an agent runs. */
export interface Progress {
  /** One progress notification with this message (nothing when the client sent no progressToken). */
  send(message: string): void;
  /** An agent started: send `message`, then a heartbeat (`running on [<label>] for 12s`) every interval. */
  running(message: string, label: string): void;
  /** No more notifications (the call is answering). */
  stop(): void;
}

/**
 * Progress notifications (`notifications/progress`) for a call whose client sent a
 * `progressToken`; the `progress` value counts up by one with each. Without a token every method
 * does nothing. The heartbeat keeps a client's request timeout from running out while an agent
 * works in silence (a client may reset it on progress).
 */
export function createProgress(
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  intervalMs: number = DEFAULT_PROGRESS_INTERVAL_MS,
): Progress {
  const token = extra._meta?.progressToken;
  let count = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const send = (message: string): void => {
    if (token === undefined || stopped || extra.signal.aborted) return;
    count += 1;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: count, message },
      })
      .catch(() => {
        // The client went away; the call ends on its own (cancellation or shutdown).
      });
  };
  return {
    send,
    running(message, label) {
      send(message);
      if (token === undefined || stopped) return;
      if (timer !== undefined) clearInterval(timer);
      const since = Date.now();
      timer = setInterval(
        () => send(`running on [${label}] for ${Math.round((Date.now() - since) / 1000)}s`),
        intervalMs,
      );
      timer.unref();
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearInterval(timer);
    },
  };
}
