import { InvalidEnvironmentError } from '@bullswarm/store';
import { abortableSleep } from './abortable-sleep';

/**
 * The seconds between re-reads of the meters while `--when-ready` waits for a back-at (a pool that
 * comes back early ends the wait). Seconds from 0.001 to 600; default 30.
 */
export const WHEN_READY_POLL_SEC = 'BULLSWARM_WHEN_READY_POLL_SEC';

/** The range {@link resolveWhenReadyPollMs} accepts, in seconds. */
export const WHEN_READY_POLL_SEC_RANGE = { min: 0.001, max: 600 } as const;

/** The default interval between early-comeback checks while waiting (30 s: the meter cache serves most). */
export const DEFAULT_WHEN_READY_POLL_MS = 30_000;

/** The longest step of a countdown: it is redrawn (and the signal checked) at least this often. */
export const COUNTDOWN_TICK_MS = 1_000;

/**
 * The interval of `--when-ready`'s early-comeback checks from `BULLSWARM_WHEN_READY_POLL_SEC`, in
 * ms: seconds from 0.001 to 600 (fractions accepted so tests can shorten it); the default, 30 s,
 * when unset or empty. Read when the command starts, before anything waits or runs.
 *
 * @throws InvalidEnvironmentError naming the variable and the range.
 */
export function resolveWhenReadyPollMs(
  env: Readonly<Record<string, string | undefined>> = process.env,
): number {
  const raw = env[WHEN_READY_POLL_SEC];
  if (raw === undefined || raw.trim() === '') return DEFAULT_WHEN_READY_POLL_MS;
  const value = Number(raw.trim());
  const { min, max } = WHEN_READY_POLL_SEC_RANGE;
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(value >= min && value <= max)) {
    throw new InvalidEnvironmentError({
      variable: WHEN_READY_POLL_SEC,
      value: raw,
      expected: `a number of seconds from ${min} to ${max}, such as 30`,
    });
  }
  return Math.max(1, Math.round(value * 1000));
}

/** How a wait for a back-at ended. */
export type BackAtWaitOutcome =
  /** The wait ran its full length: the back-at has come. */
  | { readonly kind: 'ready' }
  /** `isBack` said yes before the back-at (a fresh meter reading brought a pool back). */
  | { readonly kind: 'back-early' }
  /** The signal aborted the wait (Ctrl-C, SIGTERM). */
  | { readonly kind: 'aborted' };

/** Options of {@link waitForBackAt}. */
export interface WaitForBackAtOptions {
  /** How long to wait, in ms of real time (the back-at minus bullswarm's clock). */
  readonly waitMs: number;
  /** Ends the wait early, as `aborted`. */
  readonly signal: AbortSignal;
  /** Called on every tick (at least every {@link COUNTDOWN_TICK_MS}) with the ms left. */
  readonly onTick?: (leftMs: number) => void;
  /**
   * Asked every `pollMs` whether the wait can end now (a pool came back early); true ends it as
   * `back-early`. Never asked more often than `pollMs`, and not at all when absent.
   */
  readonly isBack?: () => Promise<boolean>;
  /** The interval of `isBack` checks, in ms (default {@link DEFAULT_WHEN_READY_POLL_MS}). */
  readonly pollMs?: number;
  /** The real-time clock the wait is measured with (default `Date.now`). */
  readonly realNow?: () => number;
  /** How one step is slept (default {@link abortableSleep}); tests pass one that moves `realNow`. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * Waits for a back-at: `waitMs` of real time in steps of at most {@link COUNTDOWN_TICK_MS} (each
 * reported to `onTick`), checking `isBack` every `pollMs`. The one wait loop of `run --when-ready`
 * and `workflow resume --when-ready`; it is bounded by `waitMs` (the caller bounds that with
 * `--max-wait`), ends at once when `signal` aborts, and leaves no listener or timer behind.
 */
export async function waitForBackAt(options: WaitForBackAtOptions): Promise<BackAtWaitOutcome> {
  const realNow = options.realNow ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const pollMs = options.pollMs ?? DEFAULT_WHEN_READY_POLL_MS;
  const start = realNow();
  const end = start + Math.max(0, options.waitMs);
  let nextPoll = start + pollMs;
  for (;;) {
    if (options.signal.aborted) return { kind: 'aborted' };
    const now = realNow();
    const left = end - now;
    if (left <= 0) return { kind: 'ready' };
    if (options.isBack !== undefined && now >= nextPoll) {
      const back = await options.isBack();
      if (options.signal.aborted) return { kind: 'aborted' };
      if (back) return { kind: 'back-early' };
      nextPoll = realNow() + pollMs;
    }
    options.onTick?.(end - realNow());
    const untilPoll = options.isBack === undefined ? Number.POSITIVE_INFINITY : nextPoll - realNow();
    const step = Math.max(1, Math.min(COUNTDOWN_TICK_MS, end - realNow(), untilPoll));
    await sleep(step, options.signal);
  }
}
