import type { Redactor } from '@bullswarm/connectors/redact';
import type { BullswarmRuntime } from '@bullswarm/dispatch';
import type { WorkflowProgram } from '../program/workflow-program';
import type { RunPaths } from '../state/run-paths';
import type { RunState, StepState } from '../state/run-state';
import type { WorkflowEventBody } from '../state/workflow-event';
import type { WorkflowRunOptions } from './run-options';

/** How urgently an event reaches disk: `durable` fsyncs the event log, `urgent` writes state.json now. */
export interface EmitHow {
  readonly durable?: boolean;
  readonly urgent?: boolean;
}

/** What the parts of a run (preparer, executor, scheduler) share; the runner owns it. */
export interface RunContext {
  readonly runtime: BullswarmRuntime;
  readonly program: WorkflowProgram;
  readonly paths: RunPaths;
  readonly state: RunState;
  readonly options: WorkflowRunOptions;
  readonly stepStates: ReadonlyMap<string, StepState>;
  /** The run was stopped (its signal fired, or a file of the run could not be written). */
  readonly aborted: boolean;
  /** Fires when the run stops (the caller's signal, or a write fault): dispatches and gates pass it on. */
  readonly signal: AbortSignal;
  /** What leaves the run (its files, its events) passes through this; see run-redactor.ts. */
  readonly redact: Redactor;
  /** Records an event (redacted, numbered, appended to events.jsonl) and asks for a state write. */
  emit(body: WorkflowEventBody, how?: EmitHow): void;
}

/** The engine's clock. */
export const now = (): number => Date.now();
