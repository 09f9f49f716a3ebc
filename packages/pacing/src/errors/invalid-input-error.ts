import { BullswarmError, hasErrorMarker } from './bullswarm-error';
import { describeValue } from './describe-value';

const errorKey = 'bullswarm.error.InvalidInputError';
const invalidInputMarker = Symbol.for(errorKey);

/**
 * An argument of a pacing function is malformed: a non-finite `now`, a duplicate pool id, a
 * window without a positive length, a threshold out of range. `field` names the offending path
 * (e.g. `pools[2].meter.windows[0].windowMinutes`), `expected` what would be valid.
 */
export class InvalidInputError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [invalidInputMarker] = true;

  /** Path of the offending field, e.g. `task.lane` or `pools[3].id`. */
  readonly field: string;
  /** What a valid value looks like. */
  readonly expected: string;
  /** The value that was given. */
  readonly received: unknown;

  constructor({ field, expected, received }: { field: string; expected: string; received: unknown }) {
    super({
      name: 'InvalidInputError',
      fault: 'input',
      message: `Invalid ${field}: expected ${expected}, received ${describeValue(received)}.`,
    });
    this.field = field;
    this.expected = expected;
    this.received = received;
  }

  static override isInstance(value: unknown): value is InvalidInputError {
    return hasErrorMarker(value, errorKey);
  }
}
