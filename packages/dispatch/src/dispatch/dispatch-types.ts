import type { EffortTier, Lane, RouteDecision, RouteTask, TaskPin, TaskRoute } from '@bullswarm/pacing';

/**
 * How an attempt or a dispatched task ended.
 * - `ok`: an answer.
 * - `quota`: a usage window, quota or balance is spent (or the meter shows the window full).
 * - `throttle`: a transient rate limit / overload (backed off or recorded, never moved).
 * - `auth`: a sign-in failure (the retry skips the credential group).
 * - `process`: a crash, a non-zero exit, a signal, an empty answer treated as failure.
 * - `stalled`: stopped by the silence clock or the no-progress clock.
 * - `empty`: exit 0 with no answer.
 * - `timeout`: the task's own `timeoutSec` ran out.
 * - `canceled`: the caller's AbortSignal fired.
 * - `unavailable`: no pool could take it now for a reason other than quota alone: something of
 *   this moment keeps pools out (the caller, a failed free-model probe, a sign-in failure's
 *   credential group), alone or beside spent windows.
 * - `no-eligible-pool`: nothing passes the task's own filters — every pool is disabled, lacks the
 *   lane, a capability or a model for the tier, or is ruled out by the route or pin (or the home
 *   has no pools). See `noPoolKind`.
 */
export type DispatchOutcomeKind =
  | 'ok'
  | 'quota'
  | 'throttle'
  | 'auth'
  | 'process'
  | 'stalled'
  | 'empty'
  | 'timeout'
  | 'canceled'
  | 'unavailable'
  | 'no-eligible-pool';

/** What to do with a throttle: a single run records it; a workflow step backs off on the same pool. */
export type ThrottlePolicy = 'record' | 'backoff';

/** One task to dispatch. */
export interface DispatchRequest {
  /**
   * What is being done, used in attempt file names (`out-<action>-attempt-<n>`) and the ledger:
   * e.g. `run` for a single run, a step id (or `<stepId>-<itemIndex>`) for a workflow step.
   */
  readonly action: string;
  readonly prompt: string;
  readonly lane: Lane;
  /** Default: pacing's DEFAULT_LANE_TIER for the lane. */
  readonly tier?: EffortTier;
  readonly capabilities?: readonly string[];
  /** The agent's working directory (absolute). */
  readonly cwd: string;
  readonly addDirs?: readonly string[];
  /** Where the attempt files go (created if missing). */
  readonly outputDir: string;
  readonly route?: TaskRoute;
  /** Pin the task to one pool (`poolId`: an id or a label), see pacing's `TaskPin`. */
  readonly pin?: TaskPin;
  /** Pools left out from the first pick (with why); more are added by the retry rules. */
  readonly excludedPools?: RouteTask['excludedPools'];
  readonly kind: RouteTask['kind'];
  /** Automatic retries after a crash, stall, sign-in failure or empty answer (default 1). */
  readonly retryAttempts?: number;
  /** Default `record` for `single-run`, `backoff` for `workflow-step`. */
  readonly throttlePolicy?: ThrottlePolicy;
  /** Overall wall-clock limit of one attempt, in seconds (none by default). */
  readonly timeoutSec?: number;
  readonly signal?: AbortSignal;
  /** Receives every event as it happens. */
  readonly onEvent?: (event: DispatchEvent) => void;
  /** Extra environment for the agent (on top of the account env and BULLSWARM_POOL). */
  readonly extraEnv?: Readonly<Record<string, string>>;
  /** Attempt numbering starts after this many earlier attempts in `outputDir` (resume/restart). */
  readonly previousAttempts?: number;
}

/** Clocks of the watchdogs; defaults come from the environment (see `resolveWatchdogSettings`). */
export interface WatchdogSettings {
  /** Silence allowed before a worker is stalled, ms; undefined = per pool (1 h metered, p50 for free). */
  readonly silenceMs?: number;
  /** No file change allowed (build/chore lanes), ms; 0 turns it off. Default 3 600 000. */
  readonly noProgressMs: number;
  /** TERM → KILL grace, ms. Default 5 000. */
  readonly killGraceMs: number;
  /** Throttle back-off waits (default [20 000, 60 000]) and the longest named wait honoured (default 120 000). */
  readonly throttleWaitsMs: readonly number[];
  readonly throttleMaxNamedWaitMs: number;
  /** Free-model probe timeout, ms (default 60 000) and cache age (default 15 min). */
  readonly probeTimeoutMs: number;
  readonly probeCacheMs: number;
  /**
   * How long a worker's network-wait notices (its connector's `activity.networkWait`) may go on
   * with no progress between before the attempt ends as a process failure, ms. Default 120 000.
   */
  readonly networkWaitMs: number;
}

/** One attempt, as reported. */
export interface AttemptReport {
  readonly attempt: number;
  readonly poolId: string;
  readonly poolLabel: string;
  readonly model: string | null;
  /** The route reason line of this attempt (with any `fallback from …` prefix). */
  readonly reason: string;
  readonly outputFile: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly kind: DispatchOutcomeKind;
  /** One human line: why it ended (the provider's notice, `stalled: no output for 300s`, `exit code 1`). */
  readonly why: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stalled: boolean;
  /** The attempt wrote something before it ended (kept on disk). */
  readonly partialOutput: boolean;
  /** Seconds of silence at the end (for stalls). */
  readonly silentSec: number;
  /** Another attempt follows. */
  readonly willRetry: boolean;
  readonly resetsAt?: number;
  readonly waitMs?: number;
}

/** The result of {@link dispatchTask}. */
export interface DispatchResult {
  readonly ok: boolean;
  readonly kind: DispatchOutcomeKind;
  /** The pool of the last attempt (or of the dry-run pick); null when no pool was picked. */
  readonly poolId: string | null;
  readonly model: string | null;
  /** The reason line of the last pick. */
  readonly reason: string;
  /** Why it did not succeed, in the spec's words (ends with `· no retry: …` when a promised retry found no pool). */
  readonly why?: string;
  /** The earliest known time the work could go again (reset, named wait). */
  readonly backAt?: number;
  /** The answer text of a successful attempt. */
  readonly answer?: string;
  readonly attempts: readonly AttemptReport[];
  /** The decision of the last pick (its candidate rows are what `run --json` prints). */
  readonly decision: RouteDecision;
  /** Throttle back-offs waited on the same pool. */
  readonly throttleBackoffs: number;
}

/** Events, as typed objects (and as JSONL where asked). Names are noun.verb. */
export type DispatchEvent =
  | {
      readonly type: 'route.decided';
      readonly action: string;
      readonly attempt: number;
      readonly at: number;
      readonly poolId: string | null;
      readonly reason: string;
    }
  | {
      readonly type: 'probe.finished';
      readonly action: string;
      readonly at: number;
      readonly poolId: string;
      readonly model: string;
      readonly ok: boolean;
      readonly cached: boolean;
      readonly reason?: string;
    }
  | {
      readonly type: 'attempt.started';
      readonly action: string;
      readonly attempt: number;
      readonly at: number;
      readonly poolId: string;
      readonly poolLabel: string;
      readonly model: string | null;
      readonly reason: string;
      readonly outputFile: string;
      readonly pid: number | undefined;
    }
  | ({ readonly type: 'attempt.finished'; readonly action: string; readonly at: number } & AttemptReport)
  | {
      readonly type: 'throttle.backoff';
      readonly action: string;
      readonly at: number;
      readonly poolId: string;
      readonly waitMs: number;
      readonly backoff: number;
    };
