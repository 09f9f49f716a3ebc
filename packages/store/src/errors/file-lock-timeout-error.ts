import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.FileLockTimeoutError';
const marker = Symbol.for(errorKey);

/** Another process held a config file's update lock for longer than the wait bound. */
export class FileLockTimeoutError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** The file whose update lock could not be taken. */
  readonly filePath: string;
  readonly lockPath: string;
  readonly waitedMs: number;

  constructor(options: { filePath: string; lockPath: string; waitedMs: number; cause?: unknown }) {
    super({
      name: 'FileLockTimeoutError',
      message:
        `could not lock ${options.filePath} for update: another bullswarm process held ${options.lockPath} ` +
        `for more than ${options.waitedMs} ms; try again once it finishes`,
      cause: options.cause,
    });
    this.filePath = options.filePath;
    this.lockPath = options.lockPath;
    this.waitedMs = options.waitedMs;
  }

  static override isInstance(value: unknown): value is FileLockTimeoutError {
    return hasErrorMarker(value, errorKey);
  }
}
