import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.FencingError';
const marker = Symbol.for(errorKey);

/**
 * A lead acted at an epoch that is no longer current (or for a plan it no longer leads): merges,
 * tags, releases and every change of a lead record are refused. The holder of `currentEpoch` is
 * `currentLead`; a lead that sees this steps down.
 */
export class FencingError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** The plan, as `<repo>/<id>`. */
  readonly plan: string;
  /** What was refused, e.g. `lead fence`, `lead handover`, `lead takeover`. */
  readonly action: string;
  /** The epoch the caller acted at (undefined when it gave none). */
  readonly epoch: number | undefined;
  /** The address the caller acted as (undefined when it gave none). */
  readonly address: string | undefined;
  /** The record's epoch now. */
  readonly currentEpoch: number;
  /** The record's lead now (undefined once the plan was released). */
  readonly currentLead: string | undefined;

  constructor(options: {
    plan: string;
    action: string;
    epoch?: number;
    address?: string;
    currentEpoch: number;
    currentLead?: string;
    why: string;
  }) {
    super({
      name: 'FencingError',
      message: `fencing: ${options.action} refused for plan ${options.plan}: ${options.why} (current epoch ${options.currentEpoch}, lead ${options.currentLead ?? 'none: released'})`,
    });
    this.plan = options.plan;
    this.action = options.action;
    this.epoch = options.epoch;
    this.address = options.address;
    this.currentEpoch = options.currentEpoch;
    this.currentLead = options.currentLead;
  }

  static override isInstance(value: unknown): value is FencingError {
    return hasErrorMarker(value, errorKey);
  }
}
