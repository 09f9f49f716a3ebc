import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.StoreUnavailableError';
const marker = Symbol.for(errorKey);

/** Why the store could not be reached. */
export type StoreUnavailableReason =
  /** The first connection failed: the server is down, unreachable, or refuses these credentials. */
  | 'unreachable'
  /** The connection was lost and did not come back within the reconnect bound. */
  | 'lost'
  /** The connection was lost while a write was on its way, so whether it happened is unknown. */
  | 'outcome-unknown';

/**
 * The shared store (Postgres) cannot be reached. bullswarm never falls back to the local SQLite
 * file when a store URL is configured (two pictures of one set of pools would be worse than none),
 * so this ends the command with exit 1 (`fault: failure`). `location` is the URL without its
 * password; the password never appears in the message.
 */
export class StoreUnavailableError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** The store URL without its password (see `redactStoreUrl`). */
  readonly location: string;
  /** What was being done, e.g. `open`, `ledger.record`. */
  readonly operation: string;
  readonly reason: StoreUnavailableReason;
  /** The driver's or the OS's code (`ECONNREFUSED`, `57P01`, `28P01`…), when it gave one. */
  readonly code: string | undefined;
  /** How long the store tried to reconnect before giving up (0 for `unreachable`). */
  readonly waitedMs: number;

  constructor(options: {
    location: string;
    operation: string;
    reason: StoreUnavailableReason;
    code?: string;
    detail: string;
    waitedMs?: number;
    cause?: unknown;
  }) {
    const waited = Math.round((options.waitedMs ?? 0) / 1000);
    const what =
      options.reason === 'unreachable'
        ? `cannot reach the bullswarm store ${options.location}`
        : options.reason === 'lost'
          ? `lost the connection to the bullswarm store ${options.location} and it did not come back within ${waited} s`
          : `lost the connection to the bullswarm store ${options.location} while ${options.operation} was being written: whether it was recorded is unknown`;
    super({
      name: 'StoreUnavailableError',
      fault: 'failure',
      message:
        `${what} (${options.code === undefined ? '' : `${options.code}: `}${options.detail}) during ${options.operation}. ` +
        'Check that the server runs and this machine can reach it, or point BULLSWARM_STORE_URL (or config.storeUrl in state.json) elsewhere; bullswarm never falls back to the local bullswarm.db while a store URL is set',
      cause: options.cause,
    });
    this.location = options.location;
    this.operation = options.operation;
    this.reason = options.reason;
    this.code = options.code;
    this.waitedMs = options.waitedMs ?? 0;
  }

  static override isInstance(value: unknown): value is StoreUnavailableError {
    return hasErrorMarker(value, errorKey);
  }
}
