import type { PlanRef } from '../plans/plan-location';

/** The lead record of one plan. */
export interface LeadRecord {
  readonly plan: PlanRef;
  /** `<repo-name>/<id>` */
  readonly label: string;
  readonly lead: string;
  /** Raised by every change of lead (claim after a release, handover, takeover). */
  readonly epoch: number;
  /** Who takes over, in order (the first reachable entry). */
  readonly succession: readonly string[];
  /** Every lane that was briefed (lead notices go to them). */
  readonly lanes: readonly string[];
  /** The successor-designate named at `low`, if any (also first in `succession`). */
  readonly designate: string | undefined;
  readonly claimedAt: number;
  readonly updatedAt: number;
  /** Set when the lead released the plan (the plan is done); no lead acts until a new claim. */
  readonly releasedAt: number | undefined;
}

/** One change of a lead record (or a refusal worth keeping), oldest first. */
export interface LeadEvent {
  readonly kind:
    | 'claim'
    | 'refresh'
    | 'designate'
    | 'handover'
    | 'takeover'
    | 'release'
    | 'step-down'
    | 'fence-refused';
  readonly epoch: number;
  readonly lead: string | undefined;
  readonly previousLead: string | undefined;
  readonly actor: string | undefined;
  readonly reason: string | undefined;
  readonly at: number;
}

/**
 * Why a takeover happens. Checked: `unreachable` (the registry's reachability) and `ask_timeout`
 * (two asks to the lead unanswered past their timeout, from the notice records). Asserted by the
 * taker and recorded as asserted: `usage_limit` (a usage-limit screen bullswarm cannot see).
 */
export type TakeoverReason = 'unreachable' | 'usage_limit' | 'ask_timeout';

export const TAKEOVER_REASONS: readonly TakeoverReason[] = ['unreachable', 'usage_limit', 'ask_timeout'];

/** Where an entry of the effective succession comes from (see `LeadBook.effectiveSuccession`). */
export type SuccessionSource = 'succession' | 'designate' | 'lane' | 'host';

/** One candidate of the effective succession, in takeover order. */
export interface SuccessionCandidate {
  readonly address: string;
  readonly source: SuccessionSource;
}

/** The result of `LeadBook.checkLeadership`. */
export type LeadershipCheck =
  | { readonly current: true; readonly record: LeadRecord }
  | {
      readonly current: false;
      readonly steppedDown: true;
      readonly record: LeadRecord;
      readonly why: string;
    };
