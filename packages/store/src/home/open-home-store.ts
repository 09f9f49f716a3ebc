import type { AsyncBullswarmStore } from '../books/async-store-types';
import type { OpenAsyncStoreOptions } from '../books/open-async-store';
import { openAsyncStore, openAsyncStoreIfExists } from '../books/open-async-store-lazy';
import { resolveHostId } from '../hosts/host-id';
import { homeStoreTarget } from './home-store-target';
import type { BullswarmHome } from './open-home';

export { homeStoreTarget } from './home-store-target';

/** Options of {@link openHomeStore}: everything but what the home decides itself. */
export type OpenHomeStoreOptions = Omit<OpenAsyncStoreOptions, 'target' | 'hostId'>;

/**
 * Opens the asynchronous store of a home, creating it when missing (the SQLite file, or the
 * tables in a Postgres database), with this machine's host id from the home (`host-id`, see
 * `resolveHostId`). What phase 2's runtime opens instead of `home.openStore()`.
 *
 * @example
 * ```ts
 * const store = await openHomeStore(openHome());
 * console.log(store.engine, store.location, store.hostId); // 'postgres', 'postgres://bullswarm@db:5432/bullswarm', 'build-box-1f2e3d4c'
 * await store.close();
 * ```
 */
export async function openHomeStore(
  home: BullswarmHome,
  options: OpenHomeStoreOptions = {},
): Promise<AsyncBullswarmStore> {
  const env = options.env ?? process.env;
  return openAsyncStore({
    ...options,
    env,
    target: homeStoreTarget(home, env),
    hostId: resolveHostId({ home: home.home, env }),
  });
}

/** Like {@link openHomeStore}, for read-only commands: undefined when there is no store yet; creates nothing. */
export async function openHomeStoreIfExists(
  home: BullswarmHome,
  options: OpenHomeStoreOptions = {},
): Promise<AsyncBullswarmStore | undefined> {
  const env = options.env ?? process.env;
  return openAsyncStoreIfExists({
    ...options,
    env,
    target: homeStoreTarget(home, env),
    hostId: resolveHostId({ home: home.home, env, create: false }),
  });
}
