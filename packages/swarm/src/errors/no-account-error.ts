import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.NoAccountError';
const marker = Symbol.for(errorKey);

/** No declared account can take the work now; `leftOut` says why each one was left out. */
export class NoAccountError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly kind: string;
  readonly leftOut: readonly { readonly poolId: string; readonly reason: string }[];
  /** The earliest known time an account is back (epoch ms), when known. */
  readonly backAt: number | undefined;

  constructor(options: {
    kind: string;
    leftOut: readonly { readonly poolId: string; readonly reason: string }[];
    reason: string;
    backAt?: number;
  }) {
    super({
      name: 'NoAccountError',
      message: `no account of kind ${options.kind} can take the work: ${options.reason}${
        options.leftOut.length > 0
          ? `; left out: ${options.leftOut.map((p) => `${p.poolId} (${p.reason})`).join(', ')}`
          : ''
      }`,
    });
    this.kind = options.kind;
    this.leftOut = options.leftOut;
    this.backAt = options.backAt;
  }

  static override isInstance(value: unknown): value is NoAccountError {
    return hasErrorMarker(value, errorKey);
  }
}
