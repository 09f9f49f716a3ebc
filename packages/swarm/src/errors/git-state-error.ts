import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.GitStateError';
const marker = Symbol.for(errorKey);

/** Git could not say where the work is (not a repository, no commit yet, git missing). */
export class GitStateError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** The directory git was asked about. */
  readonly directory: string;
  /** The git command that failed, e.g. `git rev-parse HEAD`. */
  readonly command: string;
  readonly problem: string;

  constructor(options: { directory: string; command: string; problem: string; cause?: unknown }) {
    super({
      name: 'GitStateError',
      message: `${options.directory}: \`${options.command}\` failed: ${options.problem}`,
      cause: options.cause,
    });
    this.directory = options.directory;
    this.command = options.command;
    this.problem = options.problem;
  }

  static override isInstance(value: unknown): value is GitStateError {
    return hasErrorMarker(value, errorKey);
  }
}
