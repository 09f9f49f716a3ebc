import { resolveStoreTarget, type StoreTarget } from '../engine/store-target';
import type { BullswarmHome } from './open-home';

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
