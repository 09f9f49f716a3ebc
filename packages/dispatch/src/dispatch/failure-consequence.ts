import type { MeterWindow } from '@bullswarm/pacing';
import { formatCompact, formatTime, windowLabel } from '@bullswarm/pacing/internal';
import type { AttemptKind } from '../attempt/run-attempt';
import type { DispatchOutcomeKind, ThrottlePolicy } from './dispatch-types';

/** What one attempt ended with, as far as the failure rules care. */
export interface AttemptOutcome {
  readonly kind: AttemptKind;
  /** The attempt's one-line why. */
  readonly why: string;
  /** A throttle's wait named by the provider (its final notice or Retry-After), ms. */
  readonly waitMs?: number;
}

/** Where the task stands when the attempt ended. */
export interface FailureContext {
  /** The pool's label, for the why. */
  readonly label: string;
  /** The clock's now (epoch ms). */
  readonly now: number;
  /** `record` (single run) or `backoff` (workflow step). */
  readonly policy: ThrottlePolicy;
  /** The task is pinned to one pool: a retry cannot go elsewhere. */
  readonly pinned: boolean;
  /** Automatic retries still promised (`retryAttempts`, default 1). */
  readonly retriesLeft: number;
  /** Throttle back-offs already spent on this task. */
  readonly throttleBackoffs: number;
  /** The back-off waits, one per allowed back-off (20 s then 60 s by default). */
  readonly throttleWaitsMs: readonly number[];
  /** A named wait longer than this comes back at once instead of backing off. */
  readonly throttleMaxNamedWaitMs: number;
  /** The credential group of the pool (the why of a pinned sign-in failure names it). */
  readonly credentialGroup: string;
  /**
   * After a failure that is not itself a usage limit: the window the pool's meter shows spent when
   * read right after the attempt (see {@link needsMeterRead}); undefined when none is.
   */
  readonly meterFull?: MeterWindow;
}

/** What dispatch does next. */
export type FailureDecision =
  /** The answer is in. */
  | { readonly action: 'succeed' }
  /** The task ends on this pick with `kind`; `backAt` is when the pool is expected back. */
  | {
      readonly action: 'end';
      readonly kind: DispatchOutcomeKind;
      readonly why: string;
      readonly backAt?: number;
      readonly waitMs?: number;
    }
  /** A usage-limit notice: mark the pool's limit, re-read its meter, and end as `quota` (backAt from them). */
  | { readonly action: 'usage-limit' }
  /**
   * Back off on the same pool for `waitMs` without spending a retry — when the pool is still free
   * for it (not spent or nearly spent; dispatch checks its own snapshot), else come back as throttle.
   */
  | { readonly action: 'back-off'; readonly waitMs: number }
  /**
   * The one automatic retry, on another eligible pool: after a sign-in failure outside the failed
   * pool's credential group, otherwise away from the pools that failed (the same pool when it is
   * the only one).
   */
  | { readonly action: 'retry-elsewhere'; readonly avoid: 'credential-group' | 'failed-pools' };

/** Whether the pool's meter is read before deciding (every failure but a usage limit, a timeout or a cancel). */
export function needsMeterRead(kind: AttemptKind): boolean {
  return kind !== 'ok' && kind !== 'canceled' && kind !== 'timeout' && kind !== 'quota';
}

/**
 * The failure consequences of docs/routing.md for a workflow started by this version and for a single
 * bullswarm run, as one pure function: the attempt's outcome and the task's context in, the next
 * step out. dispatch-task.ts carries it out (marking, re-reading, sleeping, picking). Each rule is
 * a row of the table in failure-consequence.test.ts.
 */
export function decideFailure(outcome: AttemptOutcome, context: FailureContext): FailureDecision {
  const { kind, why } = outcome;
  if (kind === 'ok') return { action: 'succeed' };
  // The caller's abort and the overall time limit are never retried.
  if (kind === 'canceled' || kind === 'timeout') return { action: 'end', kind, why };
  // A usage-limit notice: nothing retries or moves.
  if (kind === 'quota') return { action: 'usage-limit' };
  // Any other failure with a window the meter shows spent is a usage limit too.
  const full = context.meterFull;
  if (full !== undefined) {
    return {
      action: 'end',
      kind: 'quota',
      why:
        `usage limit: ${context.label} meter shows its ${windowLabel(full.kind)} window at ${formatCompact(full.usedPct)}%` +
        `${full.resetsAt === undefined ? '' : ` until ${formatTime(full.resetsAt)}`} (the attempt ended: ${why})`,
      ...(full.resetsAt === undefined ? {} : { backAt: full.resetsAt }),
    };
  }
  if (kind === 'throttle') return decideThrottle(outcome, context);
  // auth, process, empty, stalled: the one automatic retry.
  if (context.retriesLeft <= 0) return { action: 'end', kind, why };
  if (kind === 'auth') {
    if (context.pinned) {
      return {
        action: 'end',
        kind,
        why: `${why} · no retry: ${context.label} sign-in failed in credential group ${context.credentialGroup}`,
      };
    }
    return { action: 'retry-elsewhere', avoid: 'credential-group' };
  }
  return { action: 'retry-elsewhere', avoid: 'failed-pools' };
}

function decideThrottle(outcome: AttemptOutcome, context: FailureContext): FailureDecision {
  const { why, waitMs } = outcome;
  const named = waitMs === undefined ? {} : { waitMs };
  if (context.policy === 'record') {
    return {
      action: 'end',
      kind: 'throttle',
      why: `${why} · recorded; a single run does not retry a throttle`,
      ...named,
      ...(waitMs === undefined ? {} : { backAt: context.now + waitMs }),
    };
  }
  if (waitMs !== undefined && waitMs > context.throttleMaxNamedWaitMs) {
    const backAt = context.now + waitMs;
    return {
      action: 'end',
      kind: 'throttle',
      why:
        `${why} · the provider named a wait of ${formatWait(waitMs)} ` +
        `(over ${formatWait(context.throttleMaxNamedWaitMs)}): back at ${formatTime(backAt)}`,
      waitMs,
      backAt,
    };
  }
  const spent = context.throttleBackoffs;
  if (spent >= context.throttleWaitsMs.length) {
    return {
      action: 'end',
      kind: 'throttle',
      why: `${why} · came back after ${spent} back-off${spent === 1 ? '' : 's'} on ${context.label}`,
      ...named,
    };
  }
  return { action: 'back-off', waitMs: waitMs ?? (context.throttleWaitsMs[spent] as number) };
}

/** A wait: `5 min` for whole minutes, else seconds (`20s`, `0.2s` for the short test clocks). */
export function formatWait(ms: number): string {
  const seconds = ms / 1000;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return Number.isInteger(seconds) ? `${seconds}s` : `${formatCompact(seconds)}s`;
}
