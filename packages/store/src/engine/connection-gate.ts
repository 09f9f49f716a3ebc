/**
 * One holder at a time for a single connection (the SQLite engine's): an asynchronous transaction
 * holds it across its awaits, so another caller's statement can never slip into that transaction.
 * Waiters are served in order. Free → {@link tryEnter} succeeds at once (the common case: no
 * promise, no queue).
 */
export class ConnectionGate {
  private held = false;
  private readonly waiters: (() => void)[] = [];

  /** Take the gate now when it is free; returns whether it was taken. */
  tryEnter(): boolean {
    if (this.held) return false;
    this.held = true;
    return true;
  }

  /** Take the gate, waiting for the holders before this call. */
  enter(): Promise<void> {
    if (this.tryEnter()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Give the gate to the next waiter (or free it). */
  leave(): void {
    const next = this.waiters.shift();
    if (next === undefined) this.held = false;
    else next();
  }
}
