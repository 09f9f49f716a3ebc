import { randomBytes } from 'node:crypto';
import type { CandidateRow, PoolRejection, RouteDecision } from '@bullswarm/pacing';
import { formatTime } from '@bullswarm/pacing/internal';
import type { AttemptReport, DispatchResult } from '../dispatch/dispatch-types';
import type { BullswarmRuntime } from '../runtime/open-runtime';
import { noPoolKind } from './no-pool-kind';

/** A candidate row as `run --json` prints it (times as ISO-8601; `effectiveSurplus` null where the pace is unknown). */
export function candidateJson(row: CandidateRow) {
  return {
    ...row,
    // An unknown surplus is never shown as 0 (routing ranks the row as if its pace were 0).
    effectiveSurplus: row.pace === null ? null : row.effectiveSurplus,
    pacingResetsAt: row.pacingResetsAt === null ? null : formatTime(row.pacingResetsAt),
  };
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
 * The one object `bullswarm run --json` prints, for a dry run and a real run alike (and the MCP
 * `route` and `run` tools return): every key is always there, null (or empty, or 0) where it does
 * not apply, so a script reads one shape.
 */
export interface RunJson {
  readonly ok: boolean;
  readonly dryRun: boolean;
  /** The verdict; for a dry run, what a real run of this pick would end with. */
  readonly kind: string;
  readonly poolId: string | null;
  readonly poolLabel: string | null;
  readonly model: string | null;
  readonly tier: string;
  /** The reason line of the (last) pick. */
  readonly reason: string;
  readonly why: string | null;
  /** ISO-8601. */
  readonly backAt: string | null;
  readonly answer: string | null;
  readonly attempts: readonly ReturnType<typeof attemptJson>[];
  /** A real run's id (null for a dry run). */
  readonly runId: string | null;
  /** `$BULLSWARM_HOME/runs/<runId>`, when an attempt wrote there. */
  readonly runDir: string | null;
  readonly throttleBackoffs: number;
  /** The pick's `forecast:` line (null without a pick). */
  readonly forecast: string | null;
  /** The (last) pick's candidate rows in preference order. */
  readonly candidates: readonly ReturnType<typeof candidateJson>[];
  readonly rejected: readonly ReturnType<typeof rejectionJson>[];
}

/**
 * {@link RunJson} of a dry run: the decision alone (nothing ran). The dashboard's "Why this
 * pool?" page shows the same.
 */
export function dryRunJson(
  decision: RouteDecision,
  runtime: Pick<BullswarmRuntime, 'label'>,
  tier: string,
): RunJson {
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
    runId: null,
    runDir: null,
    throttleBackoffs: 0,
    forecast: decision.forecastLine ?? null,
    candidates: decision.candidates.map(candidateJson),
    rejected: decision.rejected.map((r) => rejectionJson(r, runtime)),
  };
}

/** Where a run's attempt files went. */
export interface RunJsonPlace {
  readonly tier: string;
  readonly runId: string;
  /** `$BULLSWARM_HOME/runs/<runId>`; given only when an attempt wrote there. */
  readonly runDir: string;
}

/**
 * {@link RunJson} of a dispatched run: the verdict, every attempt, the run id and directory,
 * throttle back-offs, and the last pick's forecast line, candidate rows and rejected pools.
 */
export function runResultJson(
  result: DispatchResult,
  runtime: Pick<BullswarmRuntime, 'label'>,
  place: RunJsonPlace,
): RunJson {
  return {
    ok: result.ok,
    dryRun: false,
    kind: result.kind,
    poolId: result.poolId,
    poolLabel: result.poolId === null ? null : runtime.label(result.poolId),
    model: result.model,
    tier: place.tier,
    reason: result.reason,
    why: result.why ?? null,
    backAt: result.backAt === undefined ? null : formatTime(result.backAt),
    answer: result.answer ?? null,
    attempts: result.attempts.map(attemptJson),
    runId: place.runId,
    runDir: result.attempts.length > 0 ? place.runDir : null,
    throttleBackoffs: result.throttleBackoffs,
    forecast: result.decision.forecastLine ?? null,
    candidates: result.decision.candidates.map(candidateJson),
    rejected: result.decision.rejected.map((r) => rejectionJson(r, runtime)),
  };
}

/**
 * What follows `FAILED [<label>] ` in the line a failed run ends with (`bullswarm run` on stderr,
 * the `run` tool's error text): `<kind>: <why>`, where a why that already opens with its kind
 * (`stalled: no output for 3s`) is not prefixed twice.
 */
export function failedRunText(kind: string, why: string): string {
  return why.startsWith(`${kind}:`) ? why : `${kind}: ${why}`;
}

/**
 * A new single-run id: `run-<utc yyyymmdd-hhmmss>-<6 hex>` (sortable by start, unique across
 * processes); its attempt files go to `$BULLSWARM_HOME/runs/<id>/`.
 */
export function newSingleRunId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `run-${stamp}-${randomBytes(3).toString('hex')}`;
}
