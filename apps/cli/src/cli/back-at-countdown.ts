import { formatTime } from '@bullswarm/pacing/internal';
import { formatCountdownMs } from '../output/format-seconds';
import type { CommandContext } from './command-context';

/** Off a terminal, a countdown line is printed at most this often (the first at once). */
export const COUNTDOWN_LINE_EVERY_MS = 30_000;

/** How a countdown to a back-at ended. */
export type CountdownOutcome = 'ready' | 'back-early' | 'aborted';

/** Options of {@link countdownToBackAt}. */
export interface CountdownOptions {
  /** The back-at waited for (epoch ms, bullswarm's clock). */
  readonly backAt: number;
  /** The wait in real ms (the back-at minus bullswarm's clock). */
  readonly waitMs: number;
  /**
   * Asked every `pollMs` whether the wait can end now; returns the label of a pool that came back
   * early (a fresh meter reading), or null. Absent: only the back-at ends the wait.
   */
  readonly backEarly?: () => Promise<string | null>;
  readonly pollMs?: number;
}

/**
 * The countdown of `run --when-ready` and `workflow resume --when-ready`: waits for a back-at with
 * dispatch's `waitForBackAt` (the one bounded wait loop), showing
 * `waiting until <time> (the earliest back-at) · resuming in 45s` on stderr — redrawn on a
 * terminal, a line every 30 s otherwise — then `back at <time>: resuming`, or
 * `back early: <pool> has quota again: resuming`. Ctrl-C and SIGTERM end the wait (`aborted`); the
 * caller says `stopped before resuming` and exits 1, as a canceled run does.
 */
export async function countdownToBackAt(
  context: CommandContext,
  options: CountdownOptions,
): Promise<CountdownOutcome> {
  const { waitForBackAt } = await import('@bullswarm/dispatch');
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const tty = context.io.stderrIsTTY;
  let lastLine: number | undefined;
  let cameBack: string | null = null;
  try {
    const backEarly = options.backEarly;
    const outcome = await waitForBackAt({
      waitMs: options.waitMs,
      signal: abort.signal,
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
      ...(backEarly === undefined
        ? {}
        : {
            isBack: async () => {
              cameBack = await backEarly();
              return cameBack !== null;
            },
          }),
      onTick: (left) => {
        const text = `waiting until ${formatTime(options.backAt)} (the earliest back-at) · resuming in ${formatCountdownMs(left)}`;
        if (tty) context.io.err(`\r\x1b[2K${text}`);
        else if (lastLine === undefined || Date.now() - lastLine >= COUNTDOWN_LINE_EVERY_MS) {
          context.io.err(`${text}\n`);
          lastLine = Date.now();
        }
      },
    });
    if (tty) context.io.err('\r\x1b[2K');
    if (outcome.kind === 'aborted') return 'aborted';
    if (outcome.kind === 'back-early') {
      context.io.err(`back early: ${cameBack} has quota again: resuming\n`);
      return 'back-early';
    }
    context.io.err(`back at ${formatTime(options.backAt)}: resuming\n`);
    return 'ready';
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
}
