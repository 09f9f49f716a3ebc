import { writeFileAtomicAsync } from '@bullswarm/connectors/internal';

/** Options of {@link CoalescingStateWriter}. */
export interface StateWriterOptions {
  /** Least time between the starts of two non-urgent writes, ms (default 250). */
  readonly minIntervalMs?: number;
  /** Told of the first failed write at once (it is also thrown by {@link CoalescingStateWriter.flush}). */
  readonly onError?: (error: Error) => void;
}

/** At most this share of the run's time goes to taking non-urgent snapshots (1/10). */
export const SNAPSHOT_SHARE = 0.1;

/**
 * Writes a run's state.json atomically (temp file in the same directory, fsync, rename, directory
 * fsync) without ever having more than one write in flight. Changes that arrive while a write runs
 * are batched into the next write, and non-urgent changes wait at least `minIntervalMs` after the
 * previous write started. So a 1,000-item fan-out writes state.json a bounded number of times per
 * second instead of once per item (which, with a state that grows with every item, is O(n²) bytes);
 * each item's verdict is durable the moment its `unit.finished` line is in events.jsonl, and resume
 * replays every event newer than the state it loads.
 *
 * The snapshot is taken (`snapshot()`) synchronously when a write starts, so it is consistent with
 * the events appended before that moment. Taking it (serialising and redacting the whole state)
 * costs time on the run's one thread in proportion to the state's size, which grows with every
 * item: so the interval also stretches to {@link SNAPSHOT_SHARE}'s inverse times the last snapshot's
 * cost, keeping state.json's share of that thread bounded (a 10,000-item fan-out otherwise spends
 * most of it re-serialising its state; docs/benchmarks.md).
 */
export class CoalescingStateWriter {
  private inFlight: Promise<void> | undefined;
  private pending = false;
  private urgent = false;
  private timer: NodeJS.Timeout | undefined;
  private lastStart = 0;
  /** How long the last `snapshot()` took, ms. */
  private lastSnapshotMs = 0;
  private error: Error | undefined;
  private readonly minIntervalMs: number;
  /** Completed writes (for tests and benchmarks). */
  writes = 0;

  constructor(
    readonly path: string,
    private readonly snapshot: () => string,
    options: StateWriterOptions = {},
  ) {
    this.minIntervalMs = options.minIntervalMs ?? 250;
    this.onError = options.onError;
  }

  private readonly onError: ((error: Error) => void) | undefined;

  /** Asks for a write; `urgent` skips the interval (a step changed, not just an item). */
  request(urgent = false): void {
    this.pending = true;
    if (urgent) this.urgent = true;
    this.pump();
  }

  private pump(): void {
    if (this.inFlight || !this.pending) return;
    const interval = Math.max(this.minIntervalMs, this.lastSnapshotMs / SNAPSHOT_SHARE);
    const wait = this.urgent ? 0 : this.lastStart + interval - Date.now();
    if (wait > 0) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, wait);
      return;
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.pending = false;
    this.urgent = false;
    this.lastStart = Date.now();
    const before = performance.now();
    const text = this.snapshot();
    this.lastSnapshotMs = performance.now() - before;
    this.inFlight = writeFileAtomicAsync(this.path, text)
      .then(
        () => {
          this.writes++;
        },
        (error: Error) => {
          if (this.error === undefined) {
            this.error = error;
            this.onError?.(error);
          }
        },
      )
      .finally(() => {
        this.inFlight = undefined;
        this.pump();
      });
  }

  /** Writes whatever is pending now and waits for it; throws the first write error seen. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending) this.urgent = true;
    for (;;) {
      if (this.inFlight) await this.inFlight;
      else if (this.pending) this.pump();
      else break;
    }
    if (this.error) throw this.error;
  }
}
