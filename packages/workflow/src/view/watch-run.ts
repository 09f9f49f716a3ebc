import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { abortableSleep } from '@bullswarm/dispatch';
import { InvalidEnvironmentError } from '@bullswarm/store';
import { type LoadedRun, loadRun } from '../state/load-run';
import { runPaths } from '../state/run-paths';
import { type LiveViewStream, TtyLiveView } from './tty-live-view';

/** Options of {@link watchRun}. */
export interface WatchRunOptions {
  readonly workflowsDir: string;
  readonly runId: string;
  /** Where to draw (stdout). */
  readonly out: LiveViewStream;
  /** Draw the live view (a TTY) or print events as JSONL lines (anything else). */
  readonly tty: boolean;
  /** How often state and events are re-read, ms (default 200). */
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
  readonly now?: () => number;
}

/** The variable that sets `workflow watch`'s poll interval (seconds from 0.001 to 60; default 0.2). */
export const WATCH_POLL_SEC = 'BULLSWARM_WORKFLOW_WATCH_POLL_SEC';

/** The range {@link resolveWatchPollMs} accepts, in seconds. */
export const WATCH_POLL_SEC_RANGE = { min: 0.001, max: 60 } as const;

/**
 * The poll interval of `workflow watch` from `BULLSWARM_WORKFLOW_WATCH_POLL_SEC`, in ms: seconds from
 * 0.001 to 60 (fractions accepted so tests can shorten it); undefined when unset or empty (the default,
 * 200 ms, applies). The upper bound keeps the wait a timer Node can hold: above about 2147483 s Node
 * fires the timer after 1 ms instead, and watch would busy-poll.
 *
 * @throws InvalidEnvironmentError naming the variable and the range.
 */
export function resolveWatchPollMs(
  env: Readonly<Record<string, string | undefined>> = process.env,
): number | undefined {
  const raw = env[WATCH_POLL_SEC];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw.trim());
  const { min, max } = WATCH_POLL_SEC_RANGE;
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(value >= min && value <= max)) {
    throw new InvalidEnvironmentError({
      variable: WATCH_POLL_SEC,
      value: raw,
      expected: `a number of seconds from ${min} to ${max}, such as 0.2`,
    });
  }
  return Math.max(1, Math.round(value * 1000));
}

/**
 * `workflow watch`: follows a run from any process by re-reading its state.json (with the newer
 * events replayed) and events.jsonl. On a TTY the live view is redrawn until no live process drives
 * the run, then the final frame stays; off a TTY every event is printed as a JSON line as it is
 * appended. A run that already ended is a replay: its final view, or all its events.
 * Resolves with the run as last read.
 *
 * @throws WorkflowError `run-not-found`, `run-state-invalid`
 */
export async function watchRun(options: WatchRunOptions): Promise<LoadedRun> {
  const pollMs = options.pollMs ?? 200;
  let loaded = loadRun(options.workflowsDir, options.runId);
  const paths = runPaths(options.workflowsDir, options.runId);
  if (options.tty) {
    const view = new TtyLiveView(options.out, {
      ...(options.now === undefined ? {} : { now: options.now }),
      reportPath: paths.reportPath,
    });
    while (loaded.live && !options.signal?.aborted) {
      view.update(loaded.state, true);
      await abortableSleep(pollMs, options.signal);
      loaded = loadRun(options.workflowsDir, options.runId);
    }
    view.finish(loaded.state, loaded.live);
    return loaded;
  }
  let offset = 0;
  let carry = '';
  const drain = () => {
    let size: number;
    try {
      size = statSync(paths.eventsPath).size;
    } catch {
      return;
    }
    if (size <= offset) return;
    const fd = openSync(paths.eventsPath, 'r');
    try {
      const buffer = Buffer.alloc(size - offset);
      const read = readSync(fd, buffer, 0, buffer.length, offset);
      offset += read;
      const text = carry + buffer.subarray(0, read).toString('utf8');
      const end = text.lastIndexOf('\n');
      carry = text.slice(end + 1);
      if (end >= 0) options.out.write(text.slice(0, end + 1));
    } finally {
      closeSync(fd);
    }
  };
  drain();
  while (loaded.live && !options.signal?.aborted) {
    await abortableSleep(pollMs, options.signal);
    drain();
    loaded = loadRun(options.workflowsDir, options.runId);
  }
  drain();
  return loaded;
}
