import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.InvalidEnvironmentError';
const marker = Symbol.for(errorKey);

/** An environment variable bullswarm reads holds a value it cannot use. */
export class InvalidEnvironmentError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** The variable, e.g. `BULLSWARM_NOW`. */
  readonly variable: string;
  readonly value: string;
  /** What would be valid, e.g. `an ISO-8601 instant such as 2026-09-10T12:00:00Z`. */
  readonly expected: string;

  constructor({ variable, value, expected }: { variable: string; value: string; expected: string }) {
    super({
      name: 'InvalidEnvironmentError',
      fault: 'input',
      message: `${variable}=${JSON.stringify(value)} is not valid: expected ${expected}`,
    });
    this.variable = variable;
    this.value = value;
    this.expected = expected;
  }

  static override isInstance(value: unknown): value is InvalidEnvironmentError {
    return hasErrorMarker(value, errorKey);
  }
}
