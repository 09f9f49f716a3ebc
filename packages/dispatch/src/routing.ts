/**
 * `@bullswarm/dispatch/routing`: the runtime, pool snapshots and routing, without the spawning
 * half of the package. Read-only commands (`bullswarm pools`, `strategy`, a dry run) import this
 * entry: it loads nothing of the attempt runner, the watchdogs or execa, so a command that never
 * spawns an agent does not pay for initialising them. The main entry re-exports all of it.
 *
 * @packageDocumentation
 */

export { TaskInputError } from './errors/task-input-error';
export {
  attemptJson,
  candidateJson,
  dryRunJson,
  failedRunText,
  newSingleRunId,
  type RunJson,
  type RunJsonPlace,
  rejectionJson,
  runResultJson,
} from './route/decision-json';
export { noPoolKind } from './route/no-pool-kind';
export {
  callerProblem,
  type RoutedTask,
  type RouteTaskOptions,
  routeOverSnapshots,
  routeSettings,
  routeTask,
} from './route/route-task';
export {
  checkDirectory,
  checkKnownTier,
  checkLane,
  checkRetryAttempts,
  checkTierName,
  knownTiers,
  MAX_RUN_RETRY_ATTEMPTS,
} from './route/task-input';
export {
  listRunRecords,
  RUN_RECORD_FILE,
  RUN_RECORD_ID_PATTERN,
  type RunRecordFile,
  readRunRecord,
  runsDirOf,
  writeRunRecord,
} from './runs/run-record';
export { type RunRecorder, type StartRunRecordOptions, startRunRecord } from './runs/run-recorder';
export { type BullswarmRuntime, type OpenRuntimeOptions, openRuntime } from './runtime/open-runtime';
export { runtimeRedactor } from './runtime/runtime-redactor';
export {
  BUILTIN_TIERS,
  type BuildPoolSnapshotsOptions,
  buildPoolSnapshots,
  describePools,
  HISTORY_WINDOW_MS,
  type PoolDetail,
  type PoolSnapshots,
  poolMeterRequest,
  RUNS_PER_POOL,
  withLedger,
} from './snapshots/build-pool-snapshots';
export { BULLSWARM_POOL, type CallerPool, detectCallerPools } from './snapshots/detect-caller';
export { findPoolCli, type PoolCli } from './snapshots/pool-cli';
export {
  buildPoolViews,
  orderedTiers,
  type PoolState,
  type PoolView,
  type PoolViewModel,
  type PoolViewSpentWindow,
  type PoolViewWindow,
} from './snapshots/pool-view';
