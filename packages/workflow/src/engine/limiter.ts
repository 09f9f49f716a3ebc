/**
 * A counting semaphore with a FIFO queue: at most `capacity` holders at once. `acquire()` resolves
 * to a release function (idempotent). Grants happen synchronously on release, so a freed slot is
 * never lost between two waiters.
 */
export class Limiter {
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  /** The most holders seen at once (for tests and benchmarks). */
  peak = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be >= 1, got ${capacity}`);
  }

  /** Holders right now. */
  get inUse(): number {
    return this.active;
  }

  acquire(): Promise<() => void> {
    if (this.active < this.capacity) return Promise.resolve(this.grant());
    return new Promise((resolve) => {
      this.waiters.push(() => resolve(this.grant()));
    });
  }

  private grant(): () => void {
    this.active++;
    this.peak = Math.max(this.peak, this.active);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      const next = this.waiters.shift();
      if (next) next();
    };
  }
}
