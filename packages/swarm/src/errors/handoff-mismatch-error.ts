import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.HandoffMismatchError';
const marker = Symbol.for(errorKey);

/** One difference between a packet and the checkout it is accepted in. */
export interface HandoffMismatch {
  /** `plan`, `repository`, `contract`, `branch`, `head`, `uncommitted` or `pendingMerges[i]`. */
  readonly field: string;
  /** What the packet says. */
  readonly packet: string;
  /** What the checkout shows now. */
  readonly checkout: string;
}

/** A packet does not match the checkout; nothing was recorded. Every difference is listed. */
export class HandoffMismatchError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly packetPath: string;
  readonly mismatches: readonly HandoffMismatch[];

  constructor(packetPath: string, mismatches: readonly HandoffMismatch[]) {
    super({
      name: 'HandoffMismatchError',
      message: `handoff packet ${packetPath} does not match the checkout, nothing was recorded:\n${mismatches
        .map((m) => `  ${m.field}: packet ${m.packet}, checkout ${m.checkout}`)
        .join('\n')}`,
    });
    this.packetPath = packetPath;
    this.mismatches = mismatches;
  }

  static override isInstance(value: unknown): value is HandoffMismatchError {
    return hasErrorMarker(value, errorKey);
  }
}
