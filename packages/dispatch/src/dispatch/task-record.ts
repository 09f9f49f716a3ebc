import type { RouteDecision } from '@bullswarm/pacing';
import type { AttemptResult } from '../attempt/run-attempt';
import type { AttemptReport, DispatchResult } from './dispatch-types';
import type { TaskSetup } from './task-setup';

/** Where an attempt ran: its pick and the reason line it ran under. */
export interface AttemptPlace {
  readonly poolId: string;
  readonly decision: RouteDecision;
  readonly reason: string;
}

/** How an attempt is reported beyond its own result. */
export interface AttemptEnding {
  readonly willRetry: boolean;
  /** The why the task reports, when it says more than the attempt's own. */
  readonly why?: string;
  readonly resetsAt?: number;
  readonly waitMs?: number;
}

/** The fields of a {@link DispatchResult} the record does not keep itself. */
export type ResultFields = Omit<DispatchResult, 'attempts' | 'throttleBackoffs' | 'ok'> & {
  /** Default: `kind === 'ok'`. */
  readonly ok?: boolean;
};

/**
 * What one task reports as it goes: the `route.decided` and `attempt.finished` events, every
 * attempt, the throttle back-offs spent, and the result they add up to.
 */
export interface TaskRecord {
  /** The number of the next attempt (after `previousAttempts` and every attempt so far). */
  readonly nextAttempt: number;
  readonly throttleBackoffs: number;
  routeDecided(decision: RouteDecision, reason: string): void;
  /** Reports an attempt that ended (and the attempt number after it). */
  finish(place: AttemptPlace, attempt: AttemptResult, ending: AttemptEnding): void;
  /** Counts one throttle back-off and says so (`throttle.backoff`). */
  backedOff(poolId: string, waitMs: number): void;
  result(fields: ResultFields): DispatchResult;
  /** The task ends on this place without an answer. */
  ended(place: AttemptPlace, kind: DispatchResult['kind'], why: string, backAt?: number): DispatchResult;
}

/** The record of one task. */
export function createTaskRecord(setup: TaskSetup): TaskRecord {
  const { request, clock, runtime } = setup;
  const attempts: AttemptReport[] = [];
  let nextAttempt = (request.previousAttempts ?? 0) + 1;
  let throttleBackoffs = 0;

  const result = (fields: ResultFields): DispatchResult => ({
    ok: fields.ok ?? fields.kind === 'ok',
    ...fields,
    attempts,
    throttleBackoffs,
  });

  return {
    get nextAttempt() {
      return nextAttempt;
    },
    get throttleBackoffs() {
      return throttleBackoffs;
    },
    routeDecided: (decision, reason) =>
      setup.emit({
        type: 'route.decided',
        action: request.action,
        attempt: nextAttempt,
        at: clock(),
        poolId: decision.poolId,
        reason,
      }),
    finish: (place, attempt, ending) => {
      nextAttempt = attempt.attempt + 1;
      const report: AttemptReport = {
        attempt: attempt.attempt,
        poolId: place.poolId,
        poolLabel: runtime.label(place.poolId),
        model: place.decision.model,
        reason: place.reason,
        outputFile: attempt.outputFile,
        startedAt: attempt.startedAt,
        endedAt: attempt.endedAt,
        kind: attempt.kind,
        why: ending.why ?? attempt.why,
        exitCode: attempt.exitCode,
        signal: attempt.signal,
        stalled: attempt.stalled,
        partialOutput: attempt.partialOutput,
        silentSec: attempt.silentSec,
        willRetry: ending.willRetry,
        ...(ending.resetsAt === undefined ? {} : { resetsAt: ending.resetsAt }),
        ...(ending.waitMs === undefined ? {} : { waitMs: ending.waitMs }),
      };
      attempts.push(report);
      setup.emit({ type: 'attempt.finished', action: request.action, at: clock(), ...report });
    },
    backedOff: (poolId, waitMs) => {
      throttleBackoffs += 1;
      setup.emit({
        type: 'throttle.backoff',
        action: request.action,
        at: clock(),
        poolId,
        waitMs,
        backoff: throttleBackoffs,
      });
    },
    result,
    ended: (place, kind, why, backAt) =>
      result({
        kind,
        poolId: place.poolId,
        model: place.decision.model,
        reason: place.reason,
        why,
        ...(backAt === undefined ? {} : { backAt }),
        decision: place.decision,
      }),
  };
}
