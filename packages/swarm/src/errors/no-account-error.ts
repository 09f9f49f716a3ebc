import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.NoAccountError';
const marker = Symbol.for(errorKey);

/**
 * What the swarm does about it (see `judgeNoAccount`): `held` wait for a lane to release an
 * account, `wait` for a reset within the horizon, `park` the plan (C7), or `unavailable`.
 */
export type NoAccountOutcomeKind = 'held' | 'wait' | 'park' | 'unavailable';

/** No declared account can take the work now; `leftOut` says why each one was left out. */
export class NoAccountError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly kind: string;
  readonly leftOut: readonly { readonly poolId: string; readonly reason: string }[];
  /** The earliest known time an account is back (epoch ms), when known. */
  readonly backAt: number | undefined;
  /** What the swarm does about it, when a plan was judged (see {@link NoAccountOutcomeKind}). */
  readonly outcome: NoAccountOutcomeKind | undefined;
  /** The soonest reset among the accounts without room, when known. */
  readonly soonestReset: { readonly poolId: string; readonly at: number } | undefined;
  /** The plan's park, for `park`. */
  readonly parkId: number | undefined;
  /** The C7 escalation of the park, for `park`. */
  readonly escalationId: number | undefined;

  constructor(options: {
    kind: string;
    leftOut: readonly { readonly poolId: string; readonly reason: string }[];
    reason: string;
    backAt?: number;
    outcome?: NoAccountOutcomeKind;
    soonestReset?: { readonly poolId: string; readonly at: number };
    parkId?: number;
    escalationId?: number;
    /** One more sentence: what the swarm does about it. */
    then?: string;
  }) {
    super({
      name: 'NoAccountError',
      message: `no account of kind ${options.kind} can take the work: ${options.reason}${
        options.leftOut.length > 0
          ? `; left out: ${options.leftOut.map((p) => `${p.poolId} (${p.reason})`).join(', ')}`
          : ''
      }${options.then === undefined ? '' : `; ${options.then}`}`,
    });
    this.kind = options.kind;
    this.leftOut = options.leftOut;
    this.backAt = options.backAt;
    this.outcome = options.outcome;
    this.soonestReset = options.soonestReset;
    this.parkId = options.parkId;
    this.escalationId = options.escalationId;
  }

  static override isInstance(value: unknown): value is NoAccountError {
    return hasErrorMarker(value, errorKey);
  }
}
