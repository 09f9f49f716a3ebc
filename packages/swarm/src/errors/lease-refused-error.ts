import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.LeaseRefusedError';
const marker = Symbol.for(errorKey);

/**
 * Why a lease was refused:
 * - `held`: the account is leased to another lane (one lane at a time).
 * - `lead-own-account`: the account is the lead's own (the two would reach critical together).
 * - `not-held`: release of an account nobody holds.
 * - `not-holder`: release by an agent that is neither the holder nor the owner.
 * - `not-declared`: the pool is not one the plan declares.
 */
export type LeaseRefusal = 'held' | 'lead-own-account' | 'not-held' | 'not-holder' | 'not-declared';

/** A lease operation was refused; `reason` says why. */
export class LeaseRefusedError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly poolId: string;
  readonly reason: LeaseRefusal;
  /** The current holder, for `held`. */
  readonly holder: string | undefined;
  /** The lead that granted the current lease, for `held`. */
  readonly owner: string | undefined;

  constructor(options: {
    poolId: string;
    reason: LeaseRefusal;
    message: string;
    holder?: string;
    owner?: string;
  }) {
    super({ name: 'LeaseRefusedError', message: options.message });
    this.poolId = options.poolId;
    this.reason = options.reason;
    this.holder = options.holder;
    this.owner = options.owner;
  }

  static override isInstance(value: unknown): value is LeaseRefusedError {
    return hasErrorMarker(value, errorKey);
  }
}
