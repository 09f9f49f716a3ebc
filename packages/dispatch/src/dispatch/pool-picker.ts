import type { CandidateRow, PoolSnapshot, RouteDecision, RouteTask } from '@bullswarm/pacing';
import type { InflightEntry } from '@bullswarm/store';
import { probeFreeModel } from '../probe/probe-free-model';
import { routeOverSnapshots } from '../route/route-task';
import {
  buildPoolSnapshots,
  type PoolDetail,
  type PoolSnapshots,
  withLedger,
} from '../snapshots/build-pool-snapshots';
import type { TaskSetup } from './task-setup';

/** A pool picked for an attempt, with what dispatch needs to run it. */
export interface Chosen {
  readonly decision: RouteDecision;
  readonly snapshot: PoolSnapshot;
  readonly detail: PoolDetail;
  readonly candidate: CandidateRow;
  /** Every pool of the pick's snapshots (the credential group of an auth failure is found here). */
  readonly pools: readonly PoolSnapshot[];
}

/** The result of one pick: a pool, or the decision that found none. */
export interface PoolPick {
  readonly decision: RouteDecision;
  readonly chosen?: Chosen;
  /** The caller's signal ended the pick before it found a pool. */
  readonly canceled?: true;
}

/** A pool left out of this task's picks, with why (the reason line names it). */
export type ExcludedPool = NonNullable<RouteTask['excludedPools']>[number];

/**
 * How many rounds one pick may take beyond one per pool: a round ends with a pick, with no pool,
 * or with a failed probe that leaves one more pool out, so N pools need at most N + 1 rounds.
 */
export const MAX_PICK_ROUNDS_OVER_POOLS = 1;

/** The picks of one task: the pools it leaves out, and the ledger entry of its latest pick. */
export interface PoolPicker {
  /**
   * One pick over fresh snapshots. `avoid` (the pools that failed in this task, last one last) is
   * left out while another pool can take the task (a retry): every failed pool first, then only
   * the last one, then none (the same pool when it is the only one). A free model the tier names
   * is probed first, and a failed probe leaves its pool out (`probe: <reason>`) and routing
   * continues.
   */
  pick(avoid?: readonly string[]): Promise<PoolPick>;
  /** Leaves a pool out of every later pick of this task (a pool already left out keeps its reason). */
  exclude(entry: ExcludedPool): void;
  /**
   * The ledger entry the latest pick recorded, handed over to the attempt that runs on it (and no
   * longer this picker's to release); undefined when there is none.
   */
  takeEntry(): InflightEntry | undefined;
  /**
   * Releases the latest pick's ledger entry when no attempt took it. An error between a pick and
   * its attempt (an onEvent callback that throws, a failing probe) must not leave it in the ledger
   * for as long as this process lives.
   */
  releaseEntry(): Promise<void>;
}

/** The decision of a pick the caller canceled before it found a pool. */
function canceledDecision(setup: TaskSetup): RouteDecision {
  const pin = setup.baseTask.pin;
  return {
    poolId: null,
    model: null,
    reason: pin === undefined ? 'canceled' : `pinned to ${setup.runtime.label(pin.poolId)}: canceled`,
    candidates: [],
    rejected: [],
  };
}

/**
 * Routes `task` away from the pools in `avoid` while another pool can take it: all of them first,
 * then only the last one, then none.
 */
function decideAvoiding(
  setup: TaskSetup,
  task: RouteTask,
  snapshots: PoolSnapshots,
  avoid: readonly string[],
): RouteDecision {
  const last = avoid.at(-1);
  const tries = avoid.length > 1 && last !== undefined ? [new Set(avoid), new Set([last])] : [new Set(avoid)];
  for (const left of tries) {
    if (![...left].some((id) => snapshots.details.has(id))) continue;
    const others: PoolSnapshots = {
      now: snapshots.now,
      pools: snapshots.pools.filter((pool) => !left.has(pool.id)),
      details: new Map([...snapshots.details].filter(([id]) => !left.has(id))),
    };
    const decision = routeOverSnapshots(setup.runtime, task, others).decision;
    if (decision.poolId !== null) return decision;
  }
  return routeOverSnapshots(setup.runtime, task, snapshots).decision;
}

/** The picker of one task, leaving out `request.excludedPools` from the start. */
export function createPoolPicker(setup: TaskSetup): PoolPicker {
  const { runtime, request, store, clock, tier, baseTask, watchdog } = setup;
  const excluded: ExcludedPool[] = [...(request.excludedPools ?? [])];
  let unguarded: InflightEntry | undefined;

  const exclude = (entry: ExcludedPool) => {
    if (!excluded.some((e) => e.poolId === entry.poolId)) excluded.push(entry);
  };
  const releaseEntry = async () => {
    if (unguarded === undefined) return;
    const entry = unguarded;
    unguarded = undefined;
    await store.ledger.release(entry.id);
  };

  const pick = async (avoid: readonly string[] = []): Promise<PoolPick> => {
    // The meters are read here, outside any lock: a slow meter never holds the ledger.
    const built = await buildPoolSnapshots(runtime);
    // Each round that does not return leaves one more pool out (its probe failed), so a pick over
    // N pools ends within N + 1 rounds; the bound makes that explicit (see MAX_PICK_ROUNDS_OVER_POOLS).
    const maxRounds = built.pools.length + MAX_PICK_ROUNDS_OVER_POOLS;
    for (let round = 1; ; round++) {
      if (request.signal?.aborted) return { decision: canceledDecision(setup), canceled: true };
      if (round > maxRounds) {
        const why = `no pick after ${maxRounds - 1} failed probes over ${built.pools.length} pools`;
        return { decision: { poolId: null, model: null, reason: why, candidates: [], rejected: [] } };
      }
      const task: RouteTask = excluded.length > 0 ? { ...baseTask, excludedPools: [...excluded] } : baseTask;
      // A pick is one cross-process critical section: read the in-flight ledger, route, record the
      // pick in one write transaction (SQLite `BEGIN IMMEDIATE`; Postgres behind the advisory lock
      // `store.ledger`, so pickers queue instead of re-running), so two bullswarm processes picking
      // at the same moment — on one machine or on two sharing a Postgres store — always see each
      // other's load. The function touches only the store (it may run twice on Postgres).
      // (A dry run is routeTask alone: no ledger, no lock.)
      const { snapshots, decision, entry } = await store.transaction(
        async (tx) => {
          const current = withLedger(built, await tx.ledger.list());
          const decided = decideAvoiding(setup, task, current, avoid);
          if (decided.poolId === null) return { snapshots: current, decision: decided, entry: undefined };
          return {
            snapshots: current,
            decision: decided,
            entry: await tx.ledger.record({
              poolId: decided.poolId,
              action: request.action,
              lane: request.lane,
              tier,
              startedAt: clock(),
              expectedMinutes: decided.candidates[0]!.expectedMinutes,
              pid: process.pid,
            }),
          };
        },
        { lock: 'store.ledger', operation: 'dispatch pick' },
      );
      unguarded = entry;
      if (decision.poolId === null) return { decision };
      const poolId = decision.poolId;
      const snapshot = snapshots.pools.find((pool) => pool.id === poolId)!;
      const detail = snapshots.details.get(poolId)!;
      const candidate = decision.candidates[0]!;
      const tierModel = snapshot.models[tier];
      if (
        candidate.free &&
        tierModel?.explicit === true &&
        tierModel.model !== undefined &&
        detail.connector?.probe === true
      ) {
        const probe = await probeFreeModel({
          ...setup.launchOptions(poolId, detail),
          store,
          model: tierModel.model,
          cwd: request.cwd,
          timeoutMs: watchdog.probeTimeoutMs,
          cacheMs: watchdog.probeCacheMs,
          killGraceMs: watchdog.killGraceMs,
          clock,
          ...(request.signal === undefined ? {} : { signal: request.signal }),
        });
        setup.emit({
          type: 'probe.finished',
          action: request.action,
          at: clock(),
          poolId,
          model: tierModel.model,
          ok: probe.ok,
          cached: probe.cached,
          ...(probe.reason === undefined ? {} : { reason: probe.reason }),
        });
        if (!probe.ok) {
          await releaseEntry();
          // Left out `evenPinned`: routed again, a pin on it is no pick (pacing says so, with the
          // reason), so a pinned task comes back at once instead of probing the same pool again.
          exclude({ poolId, reason: `probe: ${probe.reason ?? 'failed'}`, evenPinned: true });
          continue;
        }
      }
      return { decision, chosen: { decision, snapshot, detail, candidate, pools: snapshots.pools } };
    }
  };

  return {
    pick,
    exclude,
    takeEntry: () => {
      const entry = unguarded;
      unguarded = undefined;
      return entry;
    },
    releaseEntry,
  };
}
