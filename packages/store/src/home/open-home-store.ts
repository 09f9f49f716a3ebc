import type { AsyncBullswarmStore } from '../books/async-store-types';
import {
  type OpenAsyncStoreOptions,
  openAsyncStore,
  openAsyncStoreIfExists,
} from '../books/open-async-store';
import { resolveStoreTarget, type StoreTarget } from '../engine/store-target';
import { resolveHostId } from '../hosts/host-id';
import type { BullswarmHome } from './open-home';

/** Options of {@link openHomeStore}: everything but what the home decides itself. */
export type OpenHomeStoreOptions = Omit<OpenAsyncStoreOptions, 'target' | 'hostId'>;

/**
 * The store a home points at: `BULLSWARM_STORE_URL`, else `config.storeUrl` of its state.json,
 * else its own `bullswarm.db` (see `resolveStoreTarget`).
 * @throws ConfigFileError for an invalid state.json; InvalidEnvironmentError for a bad URL.
 */
export function homeStoreTarget(
  home: Pick<BullswarmHome, 'readState' | 'dbPath'>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): StoreTarget {
  const configUrl = home.readState().config.storeUrl;
  return resolveStoreTarget({ env, dbPath: home.dbPath, ...(configUrl === undefined ? {} : { configUrl }) });
}

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
