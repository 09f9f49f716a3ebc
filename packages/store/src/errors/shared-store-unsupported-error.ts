import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.SharedStoreUnsupportedError';
const marker = Symbol.for(errorKey);

/**
 * A Postgres store is configured (`BULLSWARM_STORE_URL` or `config.storeUrl`), but the caller
 * opened the synchronous SQLite store, which cannot reach it. Refused rather than quietly using
 * the local file: two pictures of the same pools would be worse than none. A usage error (exit 2):
 * unset the variable (or the key) until the command supports the shared store.
 */
export class SharedStoreUnsupportedError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** Where the URL came from: `BULLSWARM_STORE_URL` or `state.json config.storeUrl`. */
  readonly source: string;
  /** The URL without its password. */
  readonly location: string;

  constructor(options: { source: string; location: string; dbPath: string }) {
    super({
      name: 'SharedStoreUnsupportedError',
      fault: 'input',
      message:
        `${options.source} points at the shared store ${options.location}, but this command still uses only the local store ` +
        `${options.dbPath}; it refuses rather than show a picture the other machines do not share. ` +
        `Unset ${options.source === 'BULLSWARM_STORE_URL' ? 'BULLSWARM_STORE_URL' : 'config.storeUrl in state.json'} for this command`,
    });
    this.source = options.source;
    this.location = options.location;
  }

  static override isInstance(value: unknown): value is SharedStoreUnsupportedError {
    return hasErrorMarker(value, errorKey);
  }
}
