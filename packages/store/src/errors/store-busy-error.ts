import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.StoreBusyError';
const marker = Symbol.for(errorKey);

/**
 * The SQLite store stayed locked by other processes past the retry bound. Raised instead of
 * SQLite's own "database is locked", which never reaches the user.
 */
export class StoreBusyError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly dbPath: string;
  /** What was being done, e.g. `ledger.record`. */
  readonly operation: string;
  readonly attempts: number;
  readonly waitedMs: number;
  readonly isRetryable = true;

  constructor(options: {
    dbPath: string;
    operation: string;
    attempts: number;
    waitedMs: number;
    cause?: unknown;
  }) {
    super({
      name: 'StoreBusyError',
      message:
        `the bullswarm store ${options.dbPath} stayed busy for ${Math.round(options.waitedMs)} ms ` +
        `(${options.attempts} attempts at ${options.operation}): other bullswarm processes are writing heavily; try again`,
      cause: options.cause,
    });
    this.dbPath = options.dbPath;
    this.operation = options.operation;
    this.attempts = options.attempts;
    this.waitedMs = options.waitedMs;
  }

  static override isInstance(value: unknown): value is StoreBusyError {
    return hasErrorMarker(value, errorKey);
  }
}
