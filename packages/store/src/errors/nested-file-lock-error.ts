import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.NestedFileLockError';
const marker = Symbol.for(errorKey);

/**
 * An update of a config file was started from inside another update of the same file in the same
 * process (a caller bug: the outer update would overwrite the inner one's change).
 */
export class NestedFileLockError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly filePath: string;

  constructor({ filePath }: { filePath: string }) {
    super({
      name: 'NestedFileLockError',
      message: `${filePath} is already being updated by this process; make the change inside the running update`,
    });
    this.filePath = filePath;
  }

  static override isInstance(value: unknown): value is NestedFileLockError {
    return hasErrorMarker(value, errorKey);
  }
}
