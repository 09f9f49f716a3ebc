import { InvalidEnvironmentError } from '../errors/invalid-environment-error';
import { POSTGRES_URL_PATTERN, redactStoreUrl } from './store-url';

/** `BULLSWARM_STORE_URL`: a `postgres://` URL selects the shared Postgres store (over `config.storeUrl`). */
export const BULLSWARM_STORE_URL = 'BULLSWARM_STORE_URL';

/** Which engine a store opens, and where. */
export type StoreTarget =
  | { readonly engine: 'sqlite'; readonly dbPath: string }
  | {
      readonly engine: 'postgres';
      readonly url: string;
      /** Where the URL came from, for messages: `BULLSWARM_STORE_URL` or `state.json config.storeUrl`. */
      readonly source: string;
    };

/** Options of {@link resolveStoreTarget}. */
export interface ResolveStoreTargetOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** `config.storeUrl` of the home's state.json (validated there). */
  readonly configUrl?: string;
  /** The home's `bullswarm.db`: the default. */
  readonly dbPath: string;
}

/**
 * The store to open: `BULLSWARM_STORE_URL` when set (an empty value counts as unset), else the
 * home's `config.storeUrl`, else the embedded SQLite file. There is no fall-back from a configured
 * URL to the file: a server that cannot be reached is an error (`StoreUnavailableError`).
 *
 * @throws InvalidEnvironmentError when `BULLSWARM_STORE_URL` is not a `postgres://` URL (the
 * message shows it without its password).
 */
export function resolveStoreTarget(options: ResolveStoreTargetOptions): StoreTarget {
  const env = options.env ?? process.env;
  const fromEnv = env[BULLSWARM_STORE_URL];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!isPostgresUrl(fromEnv)) {
      throw new InvalidEnvironmentError({
        variable: BULLSWARM_STORE_URL,
        value: redactStoreUrl(fromEnv),
        expected: `a postgres:// or postgresql:// URL such as postgres://bullswarm@db.example:5432/bullswarm (unset it to use ${options.dbPath})`,
      });
    }
    return { engine: 'postgres', url: fromEnv, source: BULLSWARM_STORE_URL };
  }
  if (options.configUrl !== undefined && options.configUrl !== '') {
    return { engine: 'postgres', url: options.configUrl, source: 'state.json config.storeUrl' };
  }
  return { engine: 'sqlite', dbPath: options.dbPath };
}

/** Whether a string is a `postgres://`/`postgresql://` URL that parses. */
export function isPostgresUrl(text: string): boolean {
  if (!POSTGRES_URL_PATTERN.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}
