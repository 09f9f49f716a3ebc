import type { RunCounts, RunStatus, UnitState, UnitStatus } from './run-state';

/** Fields every event carries. */
export interface WorkflowEventBase {
  /** Position in the run's events.jsonl (1, 2, …; continues across resumes). */
  readonly seq: number;
  /** Wall-clock time of the event (epoch ms). */
  readonly at: number;
  readonly runId: string;
}

/** Where a unit event belongs: a step, and a fan-out item's slot. */
export interface UnitRef {
  readonly step: string;
  /** The fan-out item's slot; absent for a step's own unit. */
  readonly slot?: number;
}

/**
 * The events of a run, appended to `events.jsonl` and passed to `onEvent`. Names are noun.verb.
 * `unit.finished` carries the unit's whole record: it is the durable verdict that resume replays
 * when state.json is older than it.
 */
export type WorkflowEventBody =
  | {
      readonly type: 'run.started';
      readonly mode: 'start' | 'resume' | 'restart';
      readonly name?: string;
      readonly cwd: string;
      readonly pid: number;
      readonly levels: readonly (readonly string[])[];
    }
  | {
      readonly type: 'run.finished';
      readonly status: RunStatus;
      readonly counts: RunCounts;
      readonly elapsedMs: number;
    }
  | { readonly type: 'step.started'; readonly step: string }
  | { readonly type: 'step.items'; readonly step: string; readonly count: number; readonly reused: number }
  | {
      readonly type: 'step.finished';
      readonly step: string;
      readonly status: UnitStatus;
      readonly kind?: string;
      readonly why?: string;
      readonly backAt?: number;
    }
  | { readonly type: 'step.blocked'; readonly step: string; readonly blockedBy: readonly string[] }
  | ({ readonly type: 'unit.started' } & UnitRef)
  | ({ readonly type: 'unit.finished'; readonly unit: UnitState } & UnitRef)
  | ({
      readonly type: 'attempt.started';
      readonly attempt: number;
      readonly purpose: 'run' | 'gate-retry' | 'schema-retry';
      readonly poolId: string;
      readonly poolLabel: string;
      readonly model: string | null;
      readonly reason: string;
      readonly outputFile: string;
    } & UnitRef)
  | ({
      readonly type: 'attempt.finished';
      readonly attempt: number;
      readonly poolId: string;
      readonly poolLabel: string;
      readonly kind: string;
      readonly why: string;
      readonly willRetry: boolean;
      readonly stalled: boolean;
      readonly partialOutput?: boolean;
      readonly silentSec?: number;
      readonly startedAt: number;
      readonly endedAt: number;
      readonly backAt?: number;
    } & UnitRef)
  | ({
      readonly type: 'throttle.backoff';
      readonly poolId: string;
      readonly waitMs: number;
      readonly backoff: number;
    } & UnitRef)
  | ({
      readonly type: 'gate.finished';
      readonly ok: boolean;
      readonly exitCode: number | null;
      readonly logFile: string;
      readonly why?: string;
    } & UnitRef);

/** One event of a run. */
export type WorkflowEvent = WorkflowEventBase & WorkflowEventBody;

/** The type names of {@link WorkflowEvent}. */
export type WorkflowEventType = WorkflowEvent['type'];
