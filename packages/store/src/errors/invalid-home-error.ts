import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.InvalidHomeError';
const marker = Symbol.for(errorKey);

/**
 * The state home cannot be one: its path names a file (or something else that is not a
 * directory), or it cannot be created (a read-only file system, no permission).
 */
export class InvalidHomeError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** The home path at fault. */
  readonly home: string;

  /** `hint`: what to do, when the default (point the home at a directory) does not fit. */
  constructor({ home, problem, hint }: { home: string; problem: string; hint?: string }) {
    super({
      name: 'InvalidHomeError',
      fault: 'input',
      message: `the bullswarm home ${home} ${problem}: ${
        hint ??
        'point the home (BULLSWARM_HOME, or the home the command is given) at a directory, or at a path that does not exist yet (it is created on the first write)'
      }`,
    });
    this.home = home;
  }

  static override isInstance(value: unknown): value is InvalidHomeError {
    return hasErrorMarker(value, errorKey);
  }
}
