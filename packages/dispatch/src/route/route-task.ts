import {
  chooseRoute,
  type ExcludedPool,
  type RouteDecision,
  type RouteSettings,
  type RouteTask,
} from '@bullswarm/pacing';
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
 * A pin skips pacing's `excludedPools` (the operator chose the pool), but not the pools that cannot
 * run anything (excluded `evenPinned`: its connector is not installed, it is the caller): pacing
 * decides such a pin is no pick — `pinned to <label> (<source>): connector <id> is not installed`,
 * kind `excluded` — so the task comes back `unavailable`, as the same pool unpinned would be left
 * out.
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
  // The caller and a pool whose connector is missing cannot run anything: excluded `evenPinned`,
  // so pacing says a pin on one is no pick (`pinned to <pool> (<source>): <why>`) — the one place a
  // pin is decided. The pinned pool gets its entry even when the task already excludes it.
  const pinnedId = task.pin?.poolId;
  const excluded: ExcludedPool[] = [...(task.excludedPools ?? [])];
  const seen = new Set(excluded.map((entry) => entry.poolId));
  for (const caller of callers) {
    const pinned = caller.poolId === pinnedId;
    if (seen.has(caller.poolId) && !pinned) continue;
    excluded.push({
      poolId: caller.poolId,
      reason: pinned ? callerProblem(caller) : 'the caller',
      evenPinned: true,
    });
    seen.add(caller.poolId);
  }
  for (const [poolId, detail] of snapshots.details) {
    if (detail.problem === undefined || (seen.has(poolId) && poolId !== pinnedId)) continue;
    excluded.push({ poolId, reason: detail.problem, evenPinned: true });
    seen.add(poolId);
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
