const cell = new Int32Array(new SharedArrayBuffer(4));

/** Block the thread for `ms` milliseconds (the store's API is synchronous, so are its back-offs). */
export function sleepSync(ms: number): void {
  if (ms > 0) Atomics.wait(cell, 0, 0, ms);
}
