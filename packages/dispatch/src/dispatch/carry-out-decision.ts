import type { MeterWindow, PoolMeter, RouteTask } from '@bullswarm/pacing';
import { BURST_BLOCK_PCT, formatCompact, formatTime } from '@bullswarm/pacing/internal';
import type { AttemptResult } from '../attempt/run-attempt';
import { routeTask } from '../route/route-task';
import type { BullswarmRuntime } from '../runtime/open-runtime';
import { poolMeterRequest } from '../snapshots/build-pool-snapshots';
import { abortableSleep } from './abortable-sleep';
import type { DispatchResult } from './dispatch-types';
import { decideFailure, needsMeterRead } from './failure-consequence';
import type { Chosen, PoolPick, PoolPicker } from './pool-picker';
import { backoffReason, fallbackPrefix, rejectionList } from './reason-lines';
import type { TaskRecord } from './task-record';
import type { TaskSetup } from './task-setup';

/** What follows an attempt: the task's result, or the next attempt's pick and reason line. */
export type NextStep =
  | { readonly done: DispatchResult }
  | { readonly next: { readonly chosen: Chosen; readonly reason: string } };

/** Carries out the failure rules for the attempts of one task (see {@link createConsequences}). */
export interface Consequences {
  /** What follows `attempt`, which ran on `chosen` under the reason line `reason`. */
  after(attempt: AttemptResult, chosen: Chosen, reason: string): Promise<NextStep>;
}

/** A spent window of a meter (at 100% and not yet reset): the one with the latest known reset. */
export function spentWindow(meter: PoolMeter, now: number): MeterWindow | undefined {
  let found: MeterWindow | undefined;
  for (const window of meter.windows) {
    if (window.usedPct < BURST_BLOCK_PCT) continue;
    if (window.resetsAt !== undefined && window.resetsAt <= now) continue;
    if (
      found === undefined ||
      window.resetsAt === undefined ||
      (found.resetsAt !== undefined && window.resetsAt > found.resetsAt)
    ) {
      found = window;
    }
  }
  return found;
}

/**
 * Why `poolId` is no longer free for a throttle back-off (spent, or nearly spent), or undefined
 * when it is. Only its own snapshot is built: no other pool's meter is read for this.
 */
async function notFreeForBackoff(
  runtime: BullswarmRuntime,
  task: RouteTask,
  poolId: string,
): Promise<{ readonly reason: string; readonly backAt: number | undefined } | undefined> {
  const check = (
    await routeTask(
      runtime,
      { ...task, pin: { poolId, source: 'operator' }, excludedPools: [] },
      { poolIds: [poolId] },
    )
  ).decision;
  if (check.poolId === null) {
    return {
      reason: check.rejected.find((r) => r.poolId === poolId)?.reason ?? check.reason,
      backAt: check.backAt,
    };
  }
  const row = check.candidates[0];
  if (!row?.draining) return undefined;
  return {
    reason: `nearly spent (forecast ${formatCompact(row.forecastPacingPct ?? 0)}%)${
      row.pacingResetsAt === null ? '' : ` until ${formatTime(row.pacingResetsAt)}`
    }`,
    backAt: row.pacingResetsAt ?? undefined,
  };
}

/**
 * The consequences of each failed attempt of one task: reads what {@link decideFailure} needs
 * (the pool's meter after a failure), asks it, and carries its decision out — marks a usage limit
 * and re-reads the meter, backs off on the same pool, or picks again for the one automatic retry
 * (`retryAttempts`, default 1), away from the credential group of a sign-in failure or from the
 * pools that failed. A promised retry that finds no pool keeps the attempt's own kind; its why
 * ends with `· no retry: <pool> <reason>; …`.
 */
export function createConsequences(setup: TaskSetup, picker: PoolPicker, record: TaskRecord): Consequences {
  const { runtime, request, meters, clock, watchdog } = setup;
  let retriesLeft = request.retryAttempts ?? 1;
  /** Pools an attempt of this task failed on (crash, empty answer, stall), oldest first. */
  const failedPools: string[] = [];

  return {
    async after(attempt, chosen, reason) {
      const { snapshot, detail } = chosen;
      const poolId = snapshot.id;
      const label = runtime.label(poolId);
      const place = { poolId, decision: chosen.decision, reason };
      const meterRequest = poolMeterRequest(runtime, detail, true);
      const meterFull = needsMeterRead(attempt.kind)
        ? spentWindow(await meters.readPoolMeter(meterRequest), clock())
        : undefined;
      const decision = decideFailure(attempt, {
        label,
        now: clock(),
        policy: setup.policy,
        pinned: setup.pinnedPoolId !== undefined,
        retriesLeft,
        throttleBackoffs: record.throttleBackoffs,
        throttleWaitsMs: watchdog.throttleWaitsMs,
        throttleMaxNamedWaitMs: watchdog.throttleMaxNamedWaitMs,
        credentialGroup: snapshot.credentialGroup,
        ...(meterFull === undefined ? {} : { meterFull }),
      });

      if (decision.action === 'succeed') {
        record.finish(place, attempt, { willRetry: false });
        return {
          done: record.result({
            kind: 'ok',
            poolId,
            model: chosen.decision.model,
            reason,
            answer: attempt.answer,
            decision: chosen.decision,
          }),
        };
      }
      if (decision.action === 'end') {
        record.finish(place, attempt, {
          willRetry: false,
          why: decision.why,
          ...(decision.backAt === undefined ? {} : { resetsAt: decision.backAt }),
          ...(decision.waitMs === undefined ? {} : { waitMs: decision.waitMs }),
        });
        return { done: record.ended(place, decision.kind, decision.why, decision.backAt) };
      }
      if (decision.action === 'usage-limit') {
        const mark = await meters.markUsageLimit(poolId, {
          ...(attempt.resetsAt === undefined ? {} : { resetsAt: attempt.resetsAt }),
        });
        const meter = await meters.readPoolMeter(meterRequest);
        const backAt = attempt.resetsAt ?? spentWindow(meter, clock())?.resetsAt ?? mark.countsFullUntil;
        record.finish(place, attempt, {
          willRetry: false,
          ...(backAt === undefined ? {} : { resetsAt: backAt }),
        });
        return { done: record.ended(place, 'quota', attempt.why, backAt) };
      }
      if (decision.action === 'back-off') {
        const notFree = await notFreeForBackoff(runtime, setup.baseTask, poolId);
        if (notFree !== undefined) {
          const why = `${attempt.why} · ${label} is no longer free for a back-off: ${notFree.reason}`;
          record.finish(place, attempt, {
            willRetry: false,
            why,
            ...(notFree.backAt === undefined ? {} : { resetsAt: notFree.backAt }),
          });
          return { done: record.ended(place, 'throttle', why, notFree.backAt) };
        }
        const wait = decision.waitMs;
        record.finish(place, attempt, { willRetry: true, waitMs: wait });
        record.backedOff(poolId, wait);
        await abortableSleep(wait, request.signal);
        if (request.signal?.aborted) return { done: record.ended(place, 'canceled', 'canceled') };
        const again = backoffReason(
          record.throttleBackoffs,
          watchdog.throttleWaitsMs.length,
          label,
          wait,
          chosen.decision.reason,
        );
        record.routeDecided(chosen.decision, again);
        return { next: { chosen, reason: again } };
      }

      // retry-elsewhere: the one automatic retry.
      retriesLeft -= 1;
      let next: PoolPick;
      if (decision.avoid === 'credential-group') {
        const group = snapshot.credentialGroup;
        const groupReason = `sign-in failed in credential group ${group}`;
        for (const pool of chosen.pools) {
          if (pool.credentialGroup === group) picker.exclude({ poolId: pool.id, reason: groupReason });
        }
        next = await picker.pick();
      } else {
        failedPools.push(poolId);
        next = await picker.pick(failedPools);
      }
      if (next.canceled) {
        record.finish(place, attempt, { willRetry: false });
        return { done: record.ended(place, 'canceled', 'canceled') };
      }
      if (!next.chosen) {
        const why = `${attempt.why} · no retry: ${rejectionList(runtime, next.decision)}`;
        record.finish(place, attempt, {
          willRetry: false,
          why,
          ...(next.decision.backAt === undefined ? {} : { resetsAt: next.decision.backAt }),
        });
        record.routeDecided(next.decision, next.decision.reason);
        return { done: record.ended(place, attempt.kind, why, next.decision.backAt) };
      }
      record.finish(place, attempt, { willRetry: true });
      const retryReason = fallbackPrefix(label, attempt) + next.decision.reason;
      record.routeDecided(next.decision, retryReason);
      return { next: { chosen: next.chosen, reason: retryReason } };
    },
  };
}
