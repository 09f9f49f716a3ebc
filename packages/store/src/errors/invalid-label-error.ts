import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.InvalidLabelError';
const marker = Symbol.for(errorKey);

/**
 * Why a label was refused:
 * - `empty`: the label is empty.
 * - `whitespace`: it contains whitespace or a control character.
 * - `equals-pool-id`: it equals another pool's id (`conflictingPoolId`).
 * - `duplicate`: another pool already has it (`conflictingPoolId`).
 */
export type InvalidLabelReason = 'empty' | 'whitespace' | 'equals-pool-id' | 'duplicate';

/** A pool display label breaks the label rules (docs/routing.md, "Pool display labels"). */
export class InvalidLabelError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly label: string;
  readonly poolId: string;
  readonly reason: InvalidLabelReason;
  readonly conflictingPoolId: string | undefined;

  constructor(options: {
    label: string;
    poolId: string;
    reason: InvalidLabelReason;
    conflictingPoolId?: string;
  }) {
    const { label, poolId, reason, conflictingPoolId } = options;
    const why = {
      empty: 'a label cannot be empty',
      whitespace: 'a label cannot contain spaces or control characters',
      'equals-pool-id': `a label cannot equal another pool's id (${conflictingPoolId})`,
      duplicate: `pool ${conflictingPoolId} already has that label; labels are unique per home`,
    }[reason];
    super({
      name: 'InvalidLabelError',
      fault: 'input',
      message: `label "${label}" for pool ${poolId}: ${why}`,
    });
    this.label = label;
    this.poolId = poolId;
    this.reason = reason;
    this.conflictingPoolId = conflictingPoolId;
  }

  static override isInstance(value: unknown): value is InvalidLabelError {
    return hasErrorMarker(value, errorKey);
  }
}
