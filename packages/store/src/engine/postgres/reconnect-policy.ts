import { InvalidEnvironmentError } from '../../errors/invalid-environment-error';

/** `BULLSWARM_STORE_RECONNECT_SEC`: how long a lost Postgres connection is retried (default 30). */
export const BULLSWARM_STORE_RECONNECT_SEC = 'BULLSWARM_STORE_RECONNECT_SEC';

/** The default bound of reconnecting after a lost connection: 30 s. */
export const DEFAULT_RECONNECT_MS = 30_000;
/** First pause between reconnect attempts; doubles per attempt. */
export const RECONNECT_FIRST_DELAY_MS = 100;
/** Longest pause between reconnect attempts. */
export const RECONNECT_MAX_DELAY_MS = 2_000;
/** Runs of one transaction after serialization failures or deadlocks before giving up. */
export const DEFAULT_CONFLICT_ATTEMPTS = 12;

/**
 * The bounded back-off of a lost connection: pauses of 100 ms doubling to 2 s (jittered to
 * 50–100 % of that), until `reconnectMs` (default 30 s) has passed since the loss; then the
 * operation fails with `StoreUnavailableError` (`lost`).
 */
export class ReconnectClock {
  private attempt = 0;
  private readonly started = Date.now();

  constructor(private readonly reconnectMs: number) {}

  /** Milliseconds since the connection was lost. */
  get waitedMs(): number {
    return Date.now() - this.started;
  }

  /** The next pause, or undefined when the bound has passed (give up). */
  nextDelay(): number | undefined {
    const left = this.reconnectMs - this.waitedMs;
    if (left <= 0) return undefined;
    const ceiling = Math.min(RECONNECT_FIRST_DELAY_MS * 2 ** this.attempt, RECONNECT_MAX_DELAY_MS);
    this.attempt++;
    return Math.min(left, ceiling / 2 + Math.random() * (ceiling / 2));
  }
}

/** The reconnect bound from the environment (`BULLSWARM_STORE_RECONNECT_SEC`), or the default. */
export function reconnectMsFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  const text = env[BULLSWARM_STORE_RECONNECT_SEC];
  if (text === undefined || text === '') return DEFAULT_RECONNECT_MS;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new InvalidEnvironmentError({
      variable: BULLSWARM_STORE_RECONNECT_SEC,
      value: text,
      expected: 'a number of seconds ≥ 0 (how long a lost Postgres connection is retried; default 30)',
    });
  }
  return seconds * 1000;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
