export type {
  AsyncBullswarmStore,
  AsyncInflightLedger,
  AsyncMeterLog,
  AsyncProbeCache,
  AsyncRunLog,
  AsyncStoreBooks,
  AsyncStoreTransaction,
  ClaimBook,
  ClaimHolder,
  ClaimOutcome,
  HeldClaim,
  Promised,
  StoreHeartbeatControl,
} from './books/async-store-types';
export type { OpenAsyncStoreOptions } from './books/open-async-store';
export { openAsyncStore, openAsyncStoreIfExists } from './books/open-async-store-lazy';
export { BULLSWARM_NOW, type Clock, createClock } from './clock/create-clock';
export type { ConfigUpdate } from './config/config-file';
export { formatFieldPath } from './config/format-issues';
export { meterSourceSchema, type StateMeterSource } from './config/meter-source-schema';
export {
  ACCOUNT_PATTERN,
  CONNECTOR_ID_PATTERN,
  ENV_NAME_PATTERN,
  LABEL_PATTERN,
  POOL_ID_PATTERN,
  TIER_PATTERN,
} from './config/patterns';
export {
  clearLabel,
  findLabelConflicts,
  type LabelConflict,
  labelOwner,
  listLabels,
  type PoolLabelRow,
  poolLabel,
  readLabels,
  resolvePoolRef,
  setLabel,
  updateLabels,
  usableLabels,
  validateLabel,
} from './config/pool-labels';
export { emptyLabels, type PoolLabelsFile, poolLabelsFileSchema } from './config/pool-labels-schema';
export { poolLabelsJsonSchema, stateJsonSchema } from './config/schema-files';
export { readState, updateState } from './config/state-file';
export {
  emptyState,
  type StateAssignment,
  type StateConfig,
  type StateFile,
  type StateFileInput,
  type StatePool,
  stateAssignmentSchema,
  stateConfigSchema,
  stateFileSchema,
  statePoolSchema,
} from './config/state-file-schema';
export type { AppliedMigration, MigrationStatus, NamespaceStatus } from './engine/migration-status';
export { isConflictError, isConnectionError, isUniqueViolation } from './engine/postgres/pg-errors';
export {
  BULLSWARM_STORE_RECONNECT_SEC,
  DEFAULT_RECONNECT_MS,
} from './engine/postgres/reconnect-policy';
export type {
  ExecOptions,
  SqlDialect,
  SqlEngine,
  SqlParams,
  SqlRow,
  SqlRunResult,
  SqlSession,
  SqlValue,
  TransactionOptions,
} from './engine/sql-session';
export {
  BULLSWARM_STORE_URL,
  isPostgresUrl,
  resolveStoreTarget,
  type StoreTarget,
} from './engine/store-target';
export { redactStoreUrl } from './engine/store-url';
export {
  ConfigFileError,
  type ConfigFileErrorOptions,
  type ConfigFileProblemKind,
} from './errors/config-file-error';
export { FileLockTimeoutError } from './errors/file-lock-timeout-error';
export { InvalidEnvironmentError } from './errors/invalid-environment-error';
export { InvalidHomeError } from './errors/invalid-home-error';
export { InvalidLabelError, type InvalidLabelReason } from './errors/invalid-label-error';
export { NestedFileLockError } from './errors/nested-file-lock-error';
export { SharedStoreUnsupportedError } from './errors/shared-store-unsupported-error';
export { StoreBusyError } from './errors/store-busy-error';
export { isStoreFault, StoreFaultError } from './errors/store-fault-error';
export { StoreInputError } from './errors/store-input-error';
export { StoreMigrationError } from './errors/store-migration-error';
export { StoreOpenError } from './errors/store-open-error';
export { StoreUnavailableError, type StoreUnavailableReason } from './errors/store-unavailable-error';
export { type KnownPool, UnknownPoolError } from './errors/unknown-pool-error';
export { type FileLockOptions, lockPathFor, withFileLock } from './files/file-lock';
export { homeModeWarning } from './home/home-mode';
export { BULLSWARM_HOME, type HomePaths, type HomeRef, homePaths, resolveHome } from './home/home-paths';
export { type BullswarmHome, type HomeStoreOptions, type OpenHomeOptions, openHome } from './home/open-home';
export {
  homeStoreTarget,
  type OpenHomeStoreOptions,
  openHomeStore,
  openHomeStoreIfExists,
} from './home/open-home-store';
export {
  BULLSWARM_STORE_HEARTBEAT_SEC,
  BULLSWARM_STORE_TTL_SEC,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  DEFAULT_HEARTBEAT_TTL_MS,
  type HeartbeatSettings,
  resolveHeartbeatSettings,
} from './hosts/heartbeat-settings';
export { BULLSWARM_HOST_ID, HOST_ID_FILE, resolveHostId } from './hosts/host-id';
export {
  type HeldRow,
  type HolderVerdict,
  isLocalHost,
  judgeHolder,
  type LivenessRules,
} from './hosts/liveness';
export type { HeartbeatRenewer } from './hosts/store-heartbeat';
export { STORE_NAMESPACE } from './sqlite/core-migrations';
export type { DialectMigration, StoreMigration, StoreMigrations } from './sqlite/migrations';
export {
  type EmbeddedBullswarmStore,
  type OpenStoreOptions,
  openStore,
  openStoreIfExists,
} from './sqlite/open-store';
export type {
  BullswarmStore,
  InflightEntry,
  InflightLedger,
  MeterCacheEntry,
  MeterLog,
  MeterReadingRow,
  ProbeCache,
  ProbeResult,
  RunLog,
  RunRecord,
} from './store-types';
