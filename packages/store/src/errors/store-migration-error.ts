import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.StoreMigrationError';
const marker = Symbol.for(errorKey);

/** A registered migration is malformed or failed to apply; the transaction was rolled back. */
export class StoreMigrationError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly dbPath: string;
  readonly namespace: string;
  /** The 1-based migration version that failed; undefined when the registration itself is invalid. */
  readonly version: number | undefined;

  constructor(options: {
    dbPath: string;
    namespace: string;
    version?: number;
    problem: string;
    cause?: unknown;
  }) {
    super({
      name: 'StoreMigrationError',
      message:
        options.version === undefined
          ? `migrations of namespace "${options.namespace}" for ${options.dbPath}: ${options.problem}`
          : `migration ${options.namespace}#${options.version} on ${options.dbPath} failed (rolled back): ${options.problem}`,
      cause: options.cause,
    });
    this.dbPath = options.dbPath;
    this.namespace = options.namespace;
    this.version = options.version;
  }

  static override isInstance(value: unknown): value is StoreMigrationError {
    return hasErrorMarker(value, errorKey);
  }
}
