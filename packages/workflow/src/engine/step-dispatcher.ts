import type { EffortTier, Lane, RouteDecision, TaskPin, TaskRoute } from '@bullswarm/pacing';

/**
 * The part of `@bullswarm/dispatch`'s `DispatchRequest` the engine sends (structurally the same
 * fields, so `dispatchTask` is a {@link StepDispatcher}).
 */
export interface StepDispatchRequest {
  readonly action: string;
  readonly prompt: string;
  readonly lane: Lane;
  readonly tier?: EffortTier;
  readonly cwd: string;
  readonly addDirs?: readonly string[];
  readonly outputDir: string;
  readonly route?: TaskRoute;
  readonly pin?: TaskPin;
  readonly kind: 'workflow-step';
  readonly retryAttempts?: number;
  readonly throttlePolicy?: 'backoff';
  readonly timeoutSec?: number;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: StepDispatchEvent) => void;
  readonly extraEnv?: Readonly<Record<string, string>>;
}

/** One attempt as dispatch reports it (the fields the engine records). */
export interface StepAttemptReport {
  readonly attempt: number;
  readonly poolId: string;
  readonly poolLabel: string;
  readonly model: string | null;
  readonly reason: string;
  readonly outputFile: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly kind: string;
  readonly why: string;
  readonly exitCode: number | null;
  readonly stalled: boolean;
  /** The attempt wrote something before it ended (kept on disk). */
  readonly partialOutput?: boolean;
  /** Seconds of silence at the end (for stalls). */
  readonly silentSec?: number;
  readonly willRetry: boolean;
  readonly resetsAt?: number;
}

/** The events of dispatch the engine follows. */
export type StepDispatchEvent =
  | { readonly type: 'route.decided' }
  | { readonly type: 'probe.finished' }
  | {
      readonly type: 'attempt.started';
      readonly attempt: number;
      readonly at: number;
      readonly poolId: string;
      readonly poolLabel: string;
      readonly model: string | null;
      readonly reason: string;
      readonly outputFile: string;
    }
  | ({ readonly type: 'attempt.finished'; readonly at: number } & StepAttemptReport)
  | {
      readonly type: 'throttle.backoff';
      readonly at: number;
      readonly poolId: string;
      readonly waitMs: number;
      readonly backoff: number;
    };

/** What dispatch returns (the fields the engine reads). */
export interface StepDispatchResult {
  readonly ok: boolean;
  readonly kind: string;
  readonly poolId: string | null;
  readonly model: string | null;
  readonly reason: string;
  readonly why?: string;
  readonly backAt?: number;
  readonly answer?: string;
  readonly attempts: readonly StepAttemptReport[];
  readonly decision: RouteDecision;
}

/** Dispatches one unit of work; the default is `dispatchTask` of `@bullswarm/dispatch` over the run's runtime. */
export type StepDispatcher = (request: StepDispatchRequest) => Promise<StepDispatchResult>;

/** Dispatch kinds that send a step back to the user at once (needs-you), never retried by the engine. */
export const NEEDS_YOU_KINDS: ReadonlySet<string> = new Set([
  'quota',
  'throttle',
  'no-eligible-pool',
  'unavailable',
]);

/** Dispatch kinds whose retry spends the step's budget (a throttle back-off does not). */
export const RETRY_SPENDING_KINDS: ReadonlySet<string> = new Set(['auth', 'process', 'empty', 'stalled']);
