import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';
import { describeValue } from '@bullswarm/pacing/internal';

const errorKey = 'bullswarm.error.DispatchError';
const dispatchMarker = Symbol.for(errorKey);

/**
 * Why a dispatch could not even start:
 * - `invalid-request`: a field of the request is malformed (see `field` and `expected`).
 * - `unknown-pool`: the request pins a pool that is not in state.json.
 */
export type DispatchErrorReason = 'invalid-request' | 'unknown-pool';

/**
 * Misuse of the dispatch API: a malformed request or a pin naming an unknown pool. An agent's
 * failure is never thrown: a crash, a stall, a usage limit or a sign-in failure is a
 * {@link DispatchResult} with its kind.
 */
export class DispatchError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [dispatchMarker] = true;
  readonly reason: DispatchErrorReason;
  /** The offending field, e.g. `request.cwd` or `request.pin.poolId`. */
  readonly field: string;
  /** What would be valid. */
  readonly expected: string;
  /** The value that was given. */
  readonly received: unknown;

  constructor(options: {
    reason: DispatchErrorReason;
    field: string;
    expected: string;
    received: unknown;
    message?: string;
  }) {
    super({
      name: 'DispatchError',
      message:
        options.message ??
        `${options.field}: ${describeValue(options.received)} is not valid; expected ${options.expected}`,
    });
    this.reason = options.reason;
    this.field = options.field;
    this.expected = options.expected;
    this.received = options.received;
  }

  static override isInstance(value: unknown): value is DispatchError {
    return hasErrorMarker(value, errorKey);
  }
}
