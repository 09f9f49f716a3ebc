export {
  type AgentLaunch,
  type AgentLaunchOptions,
  type AgentTask,
  buildAgentLaunch,
} from './attempt/agent-launch';
export {
  ACTION_PATTERN,
  type AttemptFiles,
  createAttemptFiles,
  formatAttemptFileName,
  nextAttemptNumber,
} from './attempt/attempt-files';
export { buildChildEnv } from './attempt/child-env';
export { formatNoProgressDuration, formatNoProgressStall, formatSilenceStall } from './attempt/format-stall';
export {
  type AgentProcessOptions,
  type AgentProcessResult,
  runAgentProcess,
  type StopReason,
} from './attempt/run-agent-process';
export {
  type AttemptKind,
  type AttemptResult,
  type AttemptStarted,
  type RunAttemptOptions,
  runAttempt,
} from './attempt/run-attempt';
export {
  IGNORED_DIRECTORY_NAMES,
  type WatchWorkTreeOptions,
  type WorkTreeWatcher,
  watchWorkTree,
} from './attempt/work-tree-watcher';
export { abortableSleep } from './dispatch/abortable-sleep';
export { dispatchTask } from './dispatch/dispatch-task';
export type {
  AttemptReport,
  DispatchEvent,
  DispatchOutcomeKind,
  DispatchRequest,
  DispatchResult,
  ThrottlePolicy,
  WatchdogSettings,
} from './dispatch/dispatch-types';
export { type GuardedWork, guardInFlight } from './dispatch/interrupt-guard';
export {
  type BackAtWaitOutcome,
  COUNTDOWN_TICK_MS,
  DEFAULT_WHEN_READY_POLL_MS,
  resolveWhenReadyPollMs,
  type WaitForBackAtOptions,
  WHEN_READY_POLL_SEC,
  WHEN_READY_POLL_SEC_RANGE,
  waitForBackAt,
} from './dispatch/wait-for-back-at';
export {
  DEFAULT_WATCHDOG_SETTINGS,
  PROBE_TIMEOUT_SEC,
  resolveWatchdogSettings,
  THROTTLE_BACKOFF_SEC,
  WORKER_NO_PROGRESS_SEC,
  WORKER_SILENCE_SEC,
} from './dispatch/watchdog-settings';
export { workerSilenceMs } from './dispatch/worker-silence';
export { DispatchError, type DispatchErrorReason } from './errors';
export { createJsonlEventWriter, type JsonlEventWriter } from './events/jsonl-event-writer';
export {
  DEFAULT_GATE_TIMEOUT_SEC,
  GATE_KILL_GRACE_MS,
  type GateResult,
  type RunGateOptions,
  runGate,
} from './gates/run-gate';
export {
  PROBE_PROMPT,
  type ProbeFreeModelOptions,
  type ProbeOutcome,
  probeFreeModel,
} from './probe/probe-free-model';
// Runtime, snapshots and routing: also the light `@bullswarm/dispatch/routing` entry.
export {
  attemptJson,
  BUILTIN_TIERS,
  BULLSWARM_POOL,
  type BuildPoolSnapshotsOptions,
  type BullswarmRuntime,
  buildPoolSnapshots,
  buildPoolViews,
  type CallerPool,
  candidateJson,
  checkDirectory,
  checkKnownTier,
  checkLane,
  checkRetryAttempts,
  checkTierName,
  detectCallerPools,
  dryRunJson,
  failedRunText,
  HISTORY_WINDOW_MS,
  knownTiers,
  listRunRecords,
  MAX_RUN_RETRY_ATTEMPTS,
  newSingleRunId,
  noPoolKind,
  type OpenRuntimeOptions,
  openRuntime,
  orderedTiers,
  type PoolDetail,
  type PoolSnapshots,
  type PoolState,
  type PoolView,
  type PoolViewModel,
  type PoolViewSpentWindow,
  type PoolViewWindow,
  poolMeterRequest,
  type RoutedTask,
  type RouteTaskOptions,
  RUN_RECORD_FILE,
  RUN_RECORD_ID_PATTERN,
  RUNS_PER_POOL,
  type RunJson,
  type RunJsonPlace,
  type RunRecorder,
  type RunRecordFile,
  readRunRecord,
  rejectionJson,
  routeOverSnapshots,
  routeSettings,
  routeTask,
  runResultJson,
  runsDirOf,
  runtimeRedactor,
  type StartRunRecordOptions,
  startRunRecord,
  TaskInputError,
  withLedger,
  writeRunRecord,
} from './routing';

/** The version of this package (set at build time). */
export const VERSION: string = __BULLSWARM_VERSION__;
