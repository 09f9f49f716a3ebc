import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.StoreOpenError';
const marker = Symbol.for(errorKey);

/** The store's database file cannot be opened (not a SQLite database, unreadable, …). */
export class StoreOpenError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly dbPath: string;
  /** SQLite's or the OS's error code, e.g. `SQLITE_NOTADB`, `SQLITE_CANTOPEN`. */
  readonly code: string | undefined;

  constructor(options: { dbPath: string; code: string | undefined; cause?: unknown }) {
    const hint =
      options.code === 'SQLITE_NOTADB' || options.code === 'SQLITE_CORRUPT'
        ? 'it is not a valid SQLite database; move it aside and bullswarm will start a new one (history, meters and the in-flight ledger start empty)'
        : 'check that its directory exists and is writable';
    super({
      name: 'StoreOpenError',
      message: `cannot open the bullswarm store ${options.dbPath} (${options.code ?? (options.cause as Error)?.message}): ${hint}`,
      cause: options.cause,
    });
    this.dbPath = options.dbPath;
    this.code = options.code;
  }

  static override isInstance(value: unknown): value is StoreOpenError {
    return hasErrorMarker(value, errorKey);
  }
}
