import type { BullswarmRuntime } from '@bullswarm/dispatch';
import type { WorkflowReport } from '../state/build-report';
import type { RunPaths } from '../state/run-paths';
import type { RunState } from '../state/run-state';
import type { WorkflowEvent } from '../state/workflow-event';
import type { StepDispatcher } from './step-dispatcher';

/** Options every way of driving a run shares. */
export interface WorkflowRunOptions {
  /** The bullswarm runtime (home, store, connectors, meters, clock) steps are routed and dispatched with. */
  readonly runtime: BullswarmRuntime;
  /** Dispatches one unit; default `dispatchTask(runtime, request)` of `@bullswarm/dispatch`. */
  readonly dispatch?: StepDispatcher;
  /**
   * The preflight command prefix a schema-bound worker runs on its candidate, e.g.
   * `[process.execPath, '/…/bullswarm.js', 'check-output-schema']` (the CLI passes its own
   * absolute invocation). Default `['bullswarm', 'check-output-schema']`.
   */
  readonly checkOutputSchemaCommand?: readonly string[];
  /** Every event as it happens, with the live state (read it, do not change it). */
  readonly onEvent?: (event: WorkflowEvent, state: Readonly<RunState>) => void;
  /** Stops the run: running attempts are canceled and their units stay without a verdict (resume runs them). */
  readonly signal?: AbortSignal;
  /** Least time between two item-driven state.json writes, ms (default 250). */
  readonly stateWriteIntervalMs?: number;
  /**
   * How reason lines name the run's worker-pool pin: the front end's word for its option (the CLI
   * passes `--worker-pool`, the MCP tools `pool`); default `operator`. Given at each start, resume
   * and restart (it is presentation, not kept in the run's state).
   */
  readonly pinShownAs?: string;
}

/** The result of driving a run. */
export interface WorkflowRunResult {
  readonly runId: string;
  readonly paths: RunPaths;
  readonly state: RunState;
  readonly report: WorkflowReport;
  /** 0 when every step is ok, 1 when any step failed, came back, is blocked or was interrupted. */
  readonly exitCode: 0 | 1;
}

export type { ProgramRecord } from '../state/program-record';
