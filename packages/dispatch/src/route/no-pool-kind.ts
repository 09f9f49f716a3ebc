import type { NoPoolKind, RouteDecision } from '@bullswarm/pacing';
import { noPoolKindOf } from '@bullswarm/pacing/internal';

/**
 * What a pick that found no pool means for the task, for a dispatch and a dry run alike: the
 * decision's own `noPoolKind`, which pacing decides by its one rule (`noPoolKindOf`: `quota`,
 * `no-eligible-pool` or `unavailable`, see pacing's `NoPoolKind`); a decision built without
 * pacing (a canceled pick, one that ran out of rounds) is judged by the same rule from its
 * rejections.
 */
export function noPoolKind(decision: RouteDecision): NoPoolKind {
  return decision.noPoolKind ?? noPoolKindOf(decision.rejected);
}
