import type { RouteDecision } from '@bullswarm/pacing';
import type { DispatchOutcomeKind } from '../dispatch/dispatch-types';

/**
 * What a pick that found no pool means for the task (documented choice), for a dispatch and for
 * a dry run alike:
 * - `quota` when pacing says every reason is a usage limit or nearly spent (`noPoolKind: quota`);
 * - `no-eligible-pool` when nothing passes the task's own filters — every pool is disabled,
 *   lacks the lane, a capability or a model for the tier, or is ruled out by the route or pin
 *   (also when the home has no pools): waiting does not help;
 * - `unavailable` otherwise: something of this moment keeps pools out (the caller, a failed
 *   probe, a sign-in failure's credential group), alone or beside spent windows.
 */
export function noPoolKind(
  decision: RouteDecision,
): Extract<DispatchOutcomeKind, 'quota' | 'unavailable' | 'no-eligible-pool'> {
  if (decision.noPoolKind === 'quota') return 'quota';
  if (decision.rejected.every((rejection) => rejection.kind === 'ineligible' || rejection.kind === 'route')) {
    return 'no-eligible-pool';
  }
  return 'unavailable';
}
