export { type BlindCaller, blindCaller, WORKFLOW_RUN_ENV, WORKFLOW_STEP_ENV } from './blind-caller';
export {
  buildReport,
  earliestBackAt,
  type NeedsYouEntry,
  needsYou,
  type ReportStep,
  type ReportUnit,
  type WorkflowReport,
} from './build-report';
export { EventLog, parseEventLines, readEvents } from './event-log';
export {
  assertNotViewOnly,
  type LoadedRun,
  listRuns,
  loadRun,
  type RunOutcome,
  type RunSummary,
  replayEvents,
  runOutcome,
} from './load-run';
export {
  claimRun,
  ensureWorkflowTables,
  type RunClaim,
  type RunOwner,
  WORKFLOW_NAMESPACE,
  workflowMigrations,
} from './run-owner';
export { RUN_ID_PATTERN, type RunPaths, runPaths, unitCandidatesDir } from './run-paths';
export {
  type AttemptRecord,
  attemptRecordSchema,
  countUnits,
  type FailureKind,
  FINAL_STATUSES,
  failureKindSchema,
  type ItemState,
  itemStateSchema,
  type RunCounts,
  type RunState,
  type RunStatus,
  runStateSchema,
  runStatusSchema,
  STATE_VERSION,
  type StepState,
  schemaErrorSchema,
  stepStateSchema,
  type UnitState,
  type UnitStatus,
  unitStateSchema,
  unitStatusSchema,
} from './run-state';
export { CoalescingStateWriter, type StateWriterOptions } from './state-writer';
export type {
  UnitRef,
  WorkflowEvent,
  WorkflowEventBase,
  WorkflowEventBody,
  WorkflowEventType,
} from './workflow-event';
