const cell = new Int32Array(new SharedArrayBuffer(4));

/**
 * Block the thread for `ms` milliseconds: for synchronous code that must wait (the store's busy
 * back-offs and file locks, a signal handler ending a process group before it re-raises).
 */
export function sleepSync(ms: number): void {
  if (ms > 0) Atomics.wait(cell, 0, 0, ms);
}
