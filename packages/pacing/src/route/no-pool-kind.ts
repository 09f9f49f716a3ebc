import type { NoPoolKind, PoolRejection } from '../types';

/**
 * Why no pool can take a task, from the rejections of the decision — the one rule, for a pick, a
 * pin and a dry run alike (documented choice):
 * - `quota` when a pool that could otherwise run the task is spent or draining and no pool was
 *   left out by the caller (an excluded pool could have taken it: waiting for the reset is not
 *   the whole story);
 * - `no-eligible-pool` when nothing passes the task's own filters — every pool is disabled,
 *   lacks the lane, a capability or a model for the tier, or is ruled out by the route or the
 *   pin (also when there are no pools): waiting does not help;
 * - `unavailable` otherwise: something of this moment keeps pools out (the caller, a failed
 *   probe, a sign-in failure's credential group, a missing connector), alone or beside spent
 *   windows.
 */
export function noPoolKindOf(rejected: readonly PoolRejection[]): NoPoolKind {
  let quota = false;
  let excluded = false;
  let filtered = true;
  for (const rejection of rejected) {
    if (rejection.kind === 'spent' || rejection.kind === 'draining') quota = true;
    else if (rejection.kind === 'excluded') excluded = true;
    if (rejection.kind !== 'ineligible' && rejection.kind !== 'route') filtered = false;
  }
  if (quota && !excluded) return 'quota';
  return filtered ? 'no-eligible-pool' : 'unavailable';
}
