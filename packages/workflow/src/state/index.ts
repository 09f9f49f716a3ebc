export * from './blind-caller';
export * from './build-report';
export { EventLog, parseEventLines, readEvents } from './event-log';
export * from './load-run';
export {
  claimRun,
  ensureWorkflowTables,
  type RunClaim,
  type RunOwner,
  WORKFLOW_NAMESPACE,
  workflowMigrations,
} from './run-owner';
export { RUN_ID_PATTERN, type RunPaths, runPaths, unitCandidatesDir } from './run-paths';
export * from './run-state';
export { CoalescingStateWriter, type StateWriterOptions } from './state-writer';
export type * from './workflow-event';
