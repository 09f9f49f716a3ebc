import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';
import { describeValue } from '@bullswarm/pacing/internal';

const errorKey = 'bullswarm.error.StoreInputError';
const marker = Symbol.for(errorKey);

/** A value handed to the store is malformed (a caller bug): names the operation and the field. */
export class StoreInputError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** e.g. `ledger.record`. */
  readonly operation: string;
  /** e.g. `startedAt`. */
  readonly field: string;
  /** What would be valid, e.g. `a finite number (epoch ms)`. */
  readonly expected: string;

  constructor(options: { operation: string; field: string; expected: string; value: unknown }) {
    super({
      name: 'StoreInputError',
      message: `${options.operation}: ${options.field} must be ${options.expected}, got ${describeValue(options.value)}`,
    });
    this.operation = options.operation;
    this.field = options.field;
    this.expected = options.expected;
  }

  static override isInstance(value: unknown): value is StoreInputError {
    return hasErrorMarker(value, errorKey);
  }
}
