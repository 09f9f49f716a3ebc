import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits `ms`, or less when `signal` aborts; resolves either way (never rejects). node:timers'
 * own abortable timer removes its abort listener as soon as the wait ends, so a loop of many
 * sleeps on one long-lived signal (`workflow watch`, `workflow resume --when-ready`) leaves no
 * listeners behind and never trips Node's MaxListenersExceededWarning.
 */
export async function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return;
  try {
    await sleep(ms, undefined, signal === undefined ? undefined : { signal });
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
  }
}
