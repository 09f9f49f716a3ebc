import { type CandidateRow, formatTime, type PoolRejection, type RouteDecision } from '@bullswarm/pacing';
import type { AttemptReport } from '../dispatch/dispatch-types';
import type { BullswarmRuntime } from '../runtime/open-runtime';
import { noPoolKind } from './no-pool-kind';

/** A candidate row as `run --json` prints it (times as ISO-8601). */
export function candidateJson(row: CandidateRow) {
  return { ...row, pacingResetsAt: row.pacingResetsAt === null ? null : formatTime(row.pacingResetsAt) };
}

/** A rejected pool as `run --json` prints it: with its label, `backAt` as ISO-8601. */
export function rejectionJson(rejection: PoolRejection, runtime: Pick<BullswarmRuntime, 'label'>) {
  return {
    ...rejection,
    poolLabel: runtime.label(rejection.poolId),
    ...(rejection.backAt === undefined ? {} : { backAt: formatTime(rejection.backAt) }),
  };
}

/** One attempt as `run --json` prints it (times as ISO-8601). */
export function attemptJson(attempt: AttemptReport) {
  return {
    ...attempt,
    startedAt: formatTime(attempt.startedAt),
    endedAt: formatTime(attempt.endedAt),
    ...(attempt.resetsAt === undefined ? {} : { resetsAt: formatTime(attempt.resetsAt) }),
  };
}

/**
 * The object `bullswarm run --dry-run --json` prints for a decision: ok, kind (what a real run of
 * this pick would end with), the pick, its reason and forecast line, every candidate row in
 * preference order and every rejected pool. The dashboard's "Why this pool?" page shows the same.
 */
export function dryRunJson(decision: RouteDecision, runtime: Pick<BullswarmRuntime, 'label'>, tier: string) {
  const ok = decision.poolId !== null;
  return {
    ok,
    dryRun: true,
    kind: ok ? 'ok' : noPoolKind(decision),
    poolId: decision.poolId,
    poolLabel: decision.poolId === null ? null : runtime.label(decision.poolId),
    model: decision.model,
    tier,
    reason: decision.reason,
    why: ok ? null : decision.reason,
    backAt: decision.backAt === undefined ? null : formatTime(decision.backAt),
    answer: null,
    attempts: [],
    runDir: null,
    forecast: decision.forecastLine ?? null,
    candidates: decision.candidates.map(candidateJson),
    rejected: decision.rejected.map((r) => rejectionJson(r, runtime)),
  };
}
