import { BullswarmError, hasErrorMarker } from '../errors';

const errorKey = 'bullswarm.error.ConformanceError';
const marker = Symbol.for(errorKey);

/**
 * A check of the connector conformance suite failed ({@link connectorConformanceChecks}): the
 * message names the check, the sample and what was expected against what the connector did.
 */
export class ConformanceError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** The check that failed, e.g. `outcome: usage-limit sample 1 is quota`. */
  readonly check: string;
  /** What is wrong, without the check's name. */
  readonly problem: string;

  constructor(options: { check: string; problem: string; cause?: unknown }) {
    super({
      name: 'ConformanceError',
      message: `${options.check}: ${options.problem}`,
      cause: options.cause,
    });
    this.check = options.check;
    this.problem = options.problem;
  }

  static override isInstance(value: unknown): value is ConformanceError {
    return hasErrorMarker(value, errorKey);
  }
}
