import type { HeartbeatSettings } from './heartbeat-settings';

/** Renews one kind of row of this process; resolves when written. */
export type HeartbeatRenewer = () => Promise<unknown>;

/**
 * The renewal timer of one open store. It runs while this process holds something that other
 * hosts judge by heartbeat — an in-flight entry, a claim, or a renewer a package added (phase 2:
 * the swarm's rows) — and stops when the last is given back. The timer is `unref`'d (it never
 * keeps a process alive), ticks never overlap (a renewal that is still reconnecting makes the next
 * tick skip), and a failed renewal is kept in {@link lastError} and tried again at the next tick:
 * a short outage costs no row, a long one (past the TTL) lets other hosts reap them, which is the
 * point of the TTL.
 */
export class StoreHeartbeat {
  private readonly held = new Set<string>();
  private readonly renewers = new Set<HeartbeatRenewer>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** The last renewal's failure (cleared by a renewal that succeeds). */
  lastError: unknown;
  /** Renewals completed (for tests and `store status`). */
  renewals = 0;

  constructor(
    readonly settings: HeartbeatSettings,
    private readonly renewOwnRows: () => Promise<unknown>,
  ) {}

  /** This process now holds `key` (e.g. `inflight:<id>`): keep renewing. */
  hold(key: string): void {
    this.held.add(key);
    this.sync();
  }

  /** This process gave `key` back. */
  drop(key: string): void {
    this.held.delete(key);
    this.sync();
  }

  /** Renew more rows at every tick (while added); returns the removal. */
  add(renewer: HeartbeatRenewer): () => void {
    this.renewers.add(renewer);
    this.sync();
    return () => {
      this.renewers.delete(renewer);
      this.sync();
    };
  }

  /** Whether the timer runs. */
  get active(): boolean {
    return this.timer !== undefined;
  }

  /** Renew everything now (also what each tick does); rejects with the renewal's failure. */
  async renewNow(): Promise<void> {
    if (this.running !== undefined) return this.running;
    this.running = (async () => {
      try {
        await this.renewOwnRows();
        for (const renewer of [...this.renewers]) await renewer();
        this.lastError = undefined;
        this.renewals++;
      } catch (error) {
        this.lastError = error;
        throw error;
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Stop for good (the store is closing); waits for a renewal in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.sync();
    await this.running?.catch(() => {});
  }

  private sync(): void {
    const wanted = !this.stopped && (this.held.size > 0 || this.renewers.size > 0);
    if (wanted && this.timer === undefined) {
      this.timer = setInterval(() => {
        if (this.running === undefined) this.renewNow().catch(() => {});
      }, this.settings.intervalMs);
      this.timer.unref();
    } else if (!wanted && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
