import {
  chooseRoute,
  type PoolRejection,
  type RouteDecision,
  type RouteSettings,
  type RouteTask,
} from '@bullswarm/pacing';
import { formatPinSource } from '@bullswarm/pacing/internal';
import type { BullswarmRuntime } from '../runtime/open-runtime';
import {
  type BuildPoolSnapshotsOptions,
  buildPoolSnapshots,
  type PoolSnapshots,
} from '../snapshots/build-pool-snapshots';
import { type CallerPool, detectCallerPools } from '../snapshots/detect-caller';

/** Options of {@link routeTask}. */
export interface RouteTaskOptions extends BuildPoolSnapshotsOptions {
  /** Snapshots already built for this instant (a retry re-reads them instead). */
  readonly snapshots?: PoolSnapshots;
}

/** A routing decision with the snapshots it was made from. */
export interface RoutedTask {
  readonly decision: RouteDecision;
  readonly snapshots: PoolSnapshots;
  readonly callers: readonly CallerPool[];
}

/** The routing settings of a home: the in-flight penalty and the explicit tier assignments. */
export function routeSettings(runtime: BullswarmRuntime): RouteSettings {
  const assignments: Record<string, string> = {};
  for (const [tier, assignment] of Object.entries(runtime.state.assignments)) {
    assignments[tier] = assignment.pool;
  }
  return { inflightPenaltyPct: runtime.state.config.inflightPenaltyPct, assignments };
}

/**
 * Routes one task over the live pools: builds (or reuses) the snapshots, leaves out the caller and
 * pools whose connector is missing (as `excludedPools`, so the reason line names them), and asks
 * pacing. Every pick reads the live meters: nothing from a pool's past benches it.
 *
 * A pin skips pacing's `excludedPools` (the operator chose the pool), but not hard eligibility: a
 * pinned pool that cannot run anything (its connector is not installed, or it is the caller) is no pick — the decision
 * says `pinned to <label> (<source>): connector <id> is not installed`, kind `excluded`, so the
 * task comes back `unavailable`, as the same pool unpinned would be left out.
 */
export async function routeTask(
  runtime: BullswarmRuntime,
  task: RouteTask,
  options: RouteTaskOptions = {},
): Promise<RoutedTask> {
  const snapshots = options.snapshots ?? (await buildPoolSnapshots(runtime, options));
  return routeOverSnapshots(runtime, task, snapshots);
}

/**
 * {@link routeTask} over snapshots already built, synchronously: no meter is read and nothing
 * waits, so dispatch can route inside the store's write transaction that also records the pick in
 * the in-flight ledger (one cross-process critical section).
 */
export function routeOverSnapshots(
  runtime: BullswarmRuntime,
  task: RouteTask,
  snapshots: PoolSnapshots,
): RoutedTask {
  const callers = detectCallerPools(snapshots.details, runtime.env);
  const excluded = [...(task.excludedPools ?? [])];
  const seen = new Set(excluded.map((entry) => entry.poolId));
  for (const caller of callers) {
    if (seen.has(caller.poolId)) continue;
    excluded.push({ poolId: caller.poolId, reason: 'the caller' });
    seen.add(caller.poolId);
  }
  for (const [poolId, detail] of snapshots.details) {
    if (detail.problem === undefined || seen.has(poolId)) continue;
    excluded.push({ poolId, reason: detail.problem });
    seen.add(poolId);
  }
  if (task.pin !== undefined) {
    const pinnedCaller = callers.find((caller) => caller.poolId === task.pin!.poolId);
    const problem =
      pinnedCaller === undefined
        ? snapshots.details.get(task.pin.poolId)?.problem
        : callerProblem(pinnedCaller);
    if (problem !== undefined)
      return { decision: pinnedUnusable(runtime, snapshots, task, problem), snapshots, callers };
  }
  const decision = chooseRoute({
    pools: snapshots.pools,
    task: excluded.length > 0 ? { ...task, excludedPools: excluded } : task,
    now: snapshots.now,
    settings: routeSettings(runtime),
  });
  return { decision, snapshots, callers };
}

/** Why a pin on the caller is no pick (docs/routing.md, "The caller"). */
export function callerProblem(caller: CallerPool): string {
  return `it is the caller (${caller.evidence}): the agent CLI that invoked bullswarm is never a pool of its own run`;
}

/**
 * The one no-pool decision of a pinned task whose pool cannot take it (`problem`: its connector is
 * missing, its free-model probe failed): the pinned pool is named with the problem, every other
 * pool as not the pinned pool.
 */
export function pinnedUnusable(
  runtime: BullswarmRuntime,
  snapshots: PoolSnapshots,
  task: RouteTask,
  problem: string,
): RouteDecision {
  const pin = task.pin!;
  const rejected: PoolRejection[] = snapshots.pools
    .map(
      (pool): PoolRejection =>
        pool.id === pin.poolId
          ? { poolId: pool.id, kind: 'excluded', reason: problem }
          : { poolId: pool.id, kind: 'route', reason: 'not the pinned pool' },
    )
    .sort((a, b) => (a.poolId < b.poolId ? -1 : a.poolId > b.poolId ? 1 : 0));
  return {
    poolId: null,
    model: null,
    reason: `pinned to ${runtime.label(pin.poolId)} (${formatPinSource(pin)}): ${problem}`,
    candidates: [],
    rejected,
    noPoolKind: 'unavailable',
  };
}
