import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.LeadRecordError';
const marker = Symbol.for(errorKey);

/**
 * Why a lead-record operation was refused (other than a stale epoch, which is a `FencingError`):
 * - `no-record`: nobody claimed the plan (`bullswarm lead claim` first).
 * - `released`: the plan's lead record was released.
 * - `held`: another agent leads the plan.
 * - `lead-reachable`: a takeover while the lead is reachable.
 * - `not-in-succession`: the taker is not in the effective succession (the list, the designate,
 *   the lanes, agents on the lead's host — see `LeadBook.effectiveSuccession`).
 * - `earlier-successor-reachable`: an earlier succession entry is reachable (ties go to the earlier position).
 * - `bad-target`: a handover to the lead itself, or to the reserved address `lead`.
 * - `asks-not-timed-out`: a takeover for `ask_timeout` while fewer than two asks to the lead are
 *   unanswered past their timeout (checked from the notice records).
 */
export type LeadRecordRefusal =
  | 'no-record'
  | 'released'
  | 'held'
  | 'lead-reachable'
  | 'not-in-succession'
  | 'earlier-successor-reachable'
  | 'bad-target'
  | 'asks-not-timed-out';

/** A lead-record operation was refused; `reason` says why. */
export class LeadRecordError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly plan: string;
  readonly reason: LeadRecordRefusal;
  /** The lead of the record, when there is one. */
  readonly lead: string | undefined;
  readonly epoch: number | undefined;

  constructor(options: {
    plan: string;
    reason: LeadRecordRefusal;
    message: string;
    lead?: string;
    epoch?: number;
  }) {
    super({ name: 'LeadRecordError', message: options.message });
    this.plan = options.plan;
    this.reason = options.reason;
    this.lead = options.lead;
    this.epoch = options.epoch;
  }

  static override isInstance(value: unknown): value is LeadRecordError {
    return hasErrorMarker(value, errorKey);
  }
}
