import type { BullswarmRuntime } from '@bullswarm/dispatch';
import { resolvePool } from '../capacity/read-capacity';
import { PlanFileError } from '../errors/plan-file-error';
import type { Plan } from './plan-schema';

/**
 * The effort tiers the plan's accounts can run: every tier a declared pool (the plan's `pools`,
 * else every pool of the home) has a model for — its own model for the tier, else one its
 * connector allows; a pool added with `<tier>=none` cannot run that tier. Empty when the home
 * declares no pool (the valid set is then not knowable).
 */
export function knownPlanTiers(runtime: BullswarmRuntime, plan: Pick<Plan, 'pools'>): string[] {
  const poolIds =
    plan.pools === undefined
      ? runtime.state.pools.map((p) => p.id)
      : plan.pools.map((ref) => resolvePool(runtime, ref));
  const tiers = new Set<string>();
  for (const pool of runtime.state.pools) {
    if (!poolIds.includes(pool.id)) continue;
    const connector = runtime.connectors.get(pool.connector);
    const profiles = connector?.modelProfiles ?? {};
    const overrides: Readonly<Record<string, string | null | undefined>> = pool.models ?? {};
    for (const tier of new Set([...Object.keys(profiles), ...Object.keys(overrides)])) {
      // The pool's own choice wins: `<tier>=none` (null) takes the tier away, a model gives it.
      const own = overrides[tier];
      const runnable = own === null ? false : own !== undefined || (profiles[tier]?.length ?? 0) > 0;
      if (runnable) tiers.add(tier);
    }
  }
  return [...tiers].sort();
}

/**
 * Checks every task's `tier` against {@link knownPlanTiers}. When the valid set is not knowable
 * (no declared pool) nothing is checked.
 *
 * @throws PlanFileError naming `planFile`, `tasks[i].tier` and the valid tiers.
 */
export function checkPlanTiers(runtime: BullswarmRuntime, plan: Plan, planFile: string): void {
  const known = knownPlanTiers(runtime, plan);
  if (known.length === 0) return;
  plan.tasks.forEach((task, index) => {
    if (task.tier !== undefined && !known.includes(task.tier)) {
      throw new PlanFileError({
        filePath: planFile,
        fieldPath: `tasks[${index}].tier`,
        problem: `"${task.tier}" is not a tier any declared account can run: expected one of ${known.join(', ')}`,
      });
    }
  });
}
