/**
 * Waits `ms`, or less when `signal` aborts; resolves either way (never rejects). The abort
 * listener is removed as soon as the wait ends, so a loop of many sleeps on one long-lived signal
 * (`workflow watch`, `workflow resume --when-ready`) leaves no listeners behind and never trips
 * Node's MaxListenersExceededWarning.
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
