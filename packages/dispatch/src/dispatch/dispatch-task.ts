import { noPoolKind } from '../route/no-pool-kind';
import type { BullswarmRuntime } from '../runtime/open-runtime';
import { attemptOnPool } from './attempt-on-pool';
import { createConsequences } from './carry-out-decision';
import type { DispatchRequest, DispatchResult, WatchdogSettings } from './dispatch-types';
import { type Chosen, createPoolPicker } from './pool-picker';
import { createTaskRecord } from './task-record';
import { prepareTask } from './task-setup';

/**
 * Dispatches one task: routes it over the live pools, probes a free model the tier names, spawns
 * the pool's CLI (see {@link runAttempt}), and applies the failure consequences of docs/routing.md for
 * a workflow started by this version and for a single bullswarm run:
 *
 * - **usage limit** (`quota`; a limit notice, or the pool's meter showing a window full after a
 *   failed attempt): the attempt ends at once, `markUsageLimit` and a forced re-read of the
 *   pool's meter; nothing retries or moves. `backAt` = the reset when known.
 * - **throttle**: policy `record` (single run, the default there) records it, no retry. Policy
 *   `backoff` (workflow step, the default there) backs off on the same pool at most twice
 *   (20 s then 60 s, or the provider's named wait when ≤ 2 min) without spending a retry, then
 *   comes back; a named wait over 2 min comes back at once with `backAt` at its end; when the
 *   pool is no longer free for the back-off (spent, or nearly spent) it comes back instead of
 *   moving.
 * - **sign-in failure** (`auth`): the one retry goes outside the credential group — every pool of
 *   the group is added to `excludedPools` (`sign-in failed in credential group <g>`) for the rest
 *   of this task only. A pinned task has no such pool: no retry.
 * - **crash, empty answer, stall**: the one retry (`retryAttempts`, default 1) on another eligible
 *   pool, or the same pool when nothing else is; its reason starts `fallback from <label> after
 *   stall <n>s · ` (`after crash (exit 1)`, `after empty answer`, `after sign-in failure`).
 * - A promised retry that finds no free pool keeps the attempt's own kind; its why ends with
 *   `· no retry: <pool> <reason>; …`.
 * - No pool at the first pick: `quota`, `unavailable` or `no-eligible-pool` (see {@link noPoolKind})
 *   with the decision's reason as why and `backAt` the earliest known return.
 * - `timeoutSec` running out (`timeout`) and the caller's abort (`canceled`) are not retried.
 *
 * Every pick rebuilds the snapshots (live meters, the shared ledger); nothing benches a pool
 * between tasks. Each attempt is in the in-flight ledger from dispatch until it ends (released
 * on every ending, also on SIGINT/SIGTERM of this process), and appends a run record. A real pick
 * reads the meters first, outside any lock, then reads the ledger, routes and records its entry in
 * one store write transaction (`BEGIN IMMEDIATE`), so two bullswarm processes picking at once
 * always see each other's load; a free-model probe runs after that, holding the entry (released
 * when the probe leaves the pool out).
 *
 * `result.poolId`, `model`, `reason` and `decision` describe the pick of the last attempt that
 * ran (a failed retry pick is described in `why`); with no attempt, the first pick's decision.
 *
 * There is no dry run here: a dry run is {@link routeTask} alone (`run --dry-run`, the MCP `route`
 * tool, the dashboard's "Why this pool?"), over the same snapshots and the same routing, with no
 * ledger entry, no probe and no spawn.
 *
 * @throws DispatchError for a malformed request or a pin naming an unknown pool.
 */
export async function dispatchTask(
  runtime: BullswarmRuntime,
  request: DispatchRequest,
  settings: Partial<WatchdogSettings> = {},
): Promise<DispatchResult> {
  const setup = await prepareTask(runtime, request, settings);
  // The parts of one task: the picker (routing, the ledger entry of a pick, free-model probes), the
  // attempt on a picked pool (attempt-on-pool.ts), the record (events, attempts, the result) and
  // the consequences of a failed attempt (decideFailure's decisions carried out).
  const picker = createPoolPicker(setup);
  const record = createTaskRecord(setup);
  const consequences = createConsequences(setup, picker, record);
  try {
    // ---- the first pick ------------------------------------------------------------------------
    const first = await picker.pick();
    record.routeDecided(first.decision, first.decision.reason);
    if (first.canceled) {
      return record.result({
        kind: 'canceled',
        poolId: null,
        model: null,
        reason: first.decision.reason,
        why: 'canceled',
        decision: first.decision,
      });
    }
    if (!first.chosen) {
      return record.result({
        ok: false,
        kind: noPoolKind(first.decision),
        poolId: null,
        model: null,
        reason: first.decision.reason,
        why: first.decision.reason,
        ...(first.decision.backAt === undefined ? {} : { backAt: first.decision.backAt }),
        decision: first.decision,
      });
    }
    // ---- attempts, each followed by its consequences ---------------------------------------------
    let chosen: Chosen = first.chosen;
    let reason = first.decision.reason;
    for (;;) {
      if (request.signal?.aborted) {
        await picker.releaseEntry();
        return record.ended(
          { poolId: chosen.snapshot.id, decision: chosen.decision, reason },
          'canceled',
          'canceled',
        );
      }
      const attempt = await attemptOnPool(setup, {
        chosen,
        reason,
        minAttempt: record.nextAttempt,
        entry: picker.takeEntry(),
      });
      const step = await consequences.after(attempt, chosen, reason);
      if ('done' in step) return step.done;
      ({ chosen, reason } = step.next);
    }
  } catch (error) {
    await picker.releaseEntry().catch(() => {}); // the error that got here is the one to report
    throw error;
  }
}
