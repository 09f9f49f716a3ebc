import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.SwarmInputError';
const marker = Symbol.for(errorKey);

/**
 * An argument, flag or environment variable of a swarm operation is malformed: an address with a
 * space, an unknown pick kind, a threshold that is not a percentage. `field` names it (`--succession`,
 * `BULLSWARM_CAPACITY_CAP`, `to`), `expected` says what would be valid.
 */
export class SwarmInputError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** The flag, argument, field or environment variable at fault. */
  readonly field: string;
  /** What a valid value looks like. */
  readonly expected: string;
  /** The value given, when there was one. */
  readonly received: string | undefined;

  constructor(options: { field: string; expected: string; received?: string; message?: string }) {
    super({
      name: 'SwarmInputError',
      fault: 'input',
      message:
        options.message ??
        `${options.field}${options.received === undefined ? ' is missing' : ` ${JSON.stringify(options.received)} is not valid`}: expected ${options.expected}`,
    });
    this.field = options.field;
    this.expected = options.expected;
    this.received = options.received;
  }

  static override isInstance(value: unknown): value is SwarmInputError {
    return hasErrorMarker(value, errorKey);
  }
}
