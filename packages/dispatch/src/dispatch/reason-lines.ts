import type { RouteDecision } from '@bullswarm/pacing';
import type { AttemptResult } from '../attempt/run-attempt';
import type { BullswarmRuntime } from '../runtime/open-runtime';
import { formatWait } from './failure-consequence';

/** `sim:a at its 5-hour limit until …; sim:b the caller` — each rejected pool with its reason. */
export function rejectionList(runtime: Pick<BullswarmRuntime, 'label'>, decision: RouteDecision): string {
  const entries = decision.rejected
    .filter((rejection) => rejection.reason !== 'not the pinned pool')
    .map((rejection) => `${runtime.label(rejection.poolId)} ${rejection.reason}`);
  return entries.length > 0 ? entries.join('; ') : decision.reason;
}

/** The `fallback from <label> after … · ` prefix of a retry's reason line. */
export function fallbackPrefix(label: string, attempt: AttemptResult): string {
  switch (attempt.kind) {
    case 'stalled':
      return `fallback from ${label} after stall ${attempt.stallSec ?? attempt.silentSec}s · `;
    case 'empty':
      return `fallback from ${label} after empty answer · `;
    case 'auth':
      return `fallback from ${label} after sign-in failure · `;
    default: {
      if (attempt.noNetwork) return `fallback from ${label} after no network · `;
      const how =
        attempt.signal !== null
          ? `signal ${attempt.signal}`
          : attempt.exitCode !== null
            ? `exit ${attempt.exitCode}`
            : 'no exit code';
      return `fallback from ${label} after crash (${how}) · `;
    }
  }
}

/** `back-off 1 of 2 on <label> after throttle (waited 20s) · <the pick's reason>`. */
export function backoffReason(
  backoff: number,
  backoffs: number,
  label: string,
  waitMs: number,
  pickReason: string,
): string {
  return `back-off ${backoff} of ${backoffs} on ${label} after throttle (waited ${formatWait(waitMs)}) · ${pickReason}`;
}
