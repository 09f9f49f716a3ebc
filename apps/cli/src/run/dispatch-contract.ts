import type { BullswarmRuntime } from '@bullswarm/dispatch';
import type { EffortTier, Lane, PinSource, RouteDecision } from '@bullswarm/pacing';

/*
 * The part of `@bullswarm/dispatch`'s dispatchTask contract (packages/dispatch/src/dispatch/
 * dispatch-types.ts) that `bullswarm run` uses. Kept here while dispatchTask is being written in
 * that package; the run command looks the function up at run time and fails with a clear message
 * when the installed dispatch does not export it yet.
 */

/** How a dispatched task or attempt ended (see dispatch-types.ts). */
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

/** One attempt, as reported. */
export interface AttemptReport {
  readonly attempt: number;
  readonly poolId: string;
  readonly poolLabel: string;
  readonly model: string | null;
  readonly reason: string;
  readonly outputFile: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly kind: DispatchOutcomeKind;
  readonly why: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stalled: boolean;
  readonly partialOutput: boolean;
  readonly silentSec: number;
  readonly willRetry: boolean;
  readonly resetsAt?: number;
  readonly waitMs?: number;
}

/** The events `bullswarm run` renders. */
export type DispatchEvent =
  | {
      readonly type: 'route.decided';
      readonly action: string;
      readonly attempt: number;
      readonly at: number;
      readonly poolId: string | null;
      readonly reason: string;
      readonly dryRun: boolean;
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

/** One task to dispatch. */
export interface DispatchRequest {
  readonly action: string;
  readonly prompt: string;
  readonly lane: Lane;
  readonly tier?: EffortTier;
  readonly cwd: string;
  readonly addDirs?: readonly string[];
  readonly outputDir: string;
  readonly pin?: { readonly poolId: string; readonly source: PinSource };
  readonly kind: 'single-run' | 'workflow-step';
  readonly retryAttempts?: number;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: DispatchEvent) => void;
}

/** The result of dispatchTask. */
export interface DispatchResult {
  readonly ok: boolean;
  readonly kind: DispatchOutcomeKind;
  readonly poolId: string | null;
  readonly model: string | null;
  readonly reason: string;
  readonly why?: string;
  readonly backAt?: number;
  readonly answer?: string;
  readonly attempts: readonly AttemptReport[];
  readonly decision: RouteDecision;
  readonly throttleBackoffs: number;
}

/** `dispatchTask(runtime, request)`. */
export type DispatchTask = (runtime: BullswarmRuntime, request: DispatchRequest) => Promise<DispatchResult>;
