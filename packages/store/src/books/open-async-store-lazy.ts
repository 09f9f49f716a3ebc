import type { AsyncBullswarmStore } from './async-store-types';
import type { OpenAsyncStoreOptions } from './open-async-store';

/*
 * The public entry points of the asynchronous store load its implementation (books, engines) on
 * first call: bundles that import the store's index whole (the CLI's `await import('@bullswarm/store')`)
 * then carry it as a module initialised only when a command opens the asynchronous store, so a
 * start that does not pays nothing for it.
 */

/** @see {@link import('./open-async-store').openAsyncStore} */
export async function openAsyncStore(options: OpenAsyncStoreOptions): Promise<AsyncBullswarmStore> {
  return (await import('./open-async-store')).openAsyncStore(options);
}

/** @see {@link import('./open-async-store').openAsyncStoreIfExists} */
export async function openAsyncStoreIfExists(
  options: OpenAsyncStoreOptions,
): Promise<AsyncBullswarmStore | undefined> {
  return (await import('./open-async-store')).openAsyncStoreIfExists(options);
}
