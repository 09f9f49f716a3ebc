import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.SwarmInputError';
const marker = Symbol.for(errorKey);

/**
 * An option, field or environment variable of a swarm operation is malformed: an address with a
 * space, an unknown pick kind, a threshold that is not a percentage. `field` names it as the API
 * spells it (`succession`, `epoch`, a packet field such as `next[0]`, or a variable such as
 * `BULLSWARM_CAPACITY_CAP`); `expected` says what would be valid. A front end names its own
 * spelling of the field (the CLI's flag) with {@link SwarmInputError.describe}.
 */
export class SwarmInputError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** The API field, packet field or environment variable at fault. */
  readonly field: string;
  /** What a valid value looks like. */
  readonly expected: string;
  /** The value given, when there was one. */
  readonly received: string | undefined;

  constructor(options: { field: string; expected: string; received?: string; message?: string }) {
    super({
      name: 'SwarmInputError',
      fault: 'input',
      message: options.message ?? SwarmInputError.describe(options.field, options.expected, options.received),
    });
    this.field = options.field;
    this.expected = options.expected;
    this.received = options.received;
  }

  /**
   * The message of an input error on `name`: `<name> "<received>" is not valid: expected …`, or
   * `<name> is missing: expected …` — what the error says, with the field spelt as the caller
   * spells it (the CLI passes the flag it spells the field with).
   */
  static describe(name: string, expected: string, received: string | undefined): string {
    return `${name}${received === undefined ? ' is missing' : ` ${JSON.stringify(received)} is not valid`}: expected ${expected}`;
  }

  static override isInstance(value: unknown): value is SwarmInputError {
    return hasErrorMarker(value, errorKey);
  }
}
