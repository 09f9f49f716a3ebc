export { unitFingerprint } from './fingerprint';
export { createFilesMatcher } from './glob-match';
export { homeValidationNames } from './home-names';
export { itemLabel } from './item-label';
export { Limiter } from './limiter';
export { type PlannedStep, type PlanWorkflowOptions, planWorkflow } from './plan-workflow';
export { resolveInputs } from './resolve-inputs';
export type { ProgramRecord, WorkflowRunOptions, WorkflowRunResult } from './run-options';
export {
  NEEDS_YOU_KINDS,
  RETRY_SPENDING_KINDS,
  type StepAttemptReport,
  type StepDispatchEvent,
  type StepDispatcher,
  type StepDispatchRequest,
  type StepDispatchResult,
} from './step-dispatcher';
export { blindPrefix, shellQuote } from './step-prompt';
export {
  detectTreeMode,
  diffSnapshots,
  snapshotTree,
  type TreeMode,
  type TreeSnapshot,
} from './tree-snapshot';
export { TreeTracker, type UnitChanges } from './tree-tracker';
export {
  checkRunSettings,
  newRunId,
  type RestartWorkflowStepOptions,
  type ResumeWorkflowOptions,
  readProgramRecord,
  restartWorkflowStep,
  resumeWorkflow,
  type StartWorkflowOptions,
  startWorkflow,
} from './workflow-api';
export { defaultStepDispatcher } from './workflow-runner';
