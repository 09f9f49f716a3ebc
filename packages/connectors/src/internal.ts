/**
 * `@bullswarm/connectors/internal`: the operating-system helpers every bullswarm package shares —
 * one atomic file writer, one reader of the JSON files users write, one reading of `/proc`, the
 * process-group killers (of a group this process started, and of an orphaned worker's), one
 * canonical JSON. For bullswarm's own packages; not a stable API.
 */

export { appendLine, endsInsideLine, openAppendOnly } from './files/append-line';
export { asFileWriteError, FileWriteError } from './files/file-write-error';
export {
  type JsonRead,
  type JsonReadProblem,
  type JsonReadReason,
  parseJsonText,
  readFailure,
  readJsonFile,
} from './files/read-json-file';
export { checkWriteFault, WRITE_FAULT_VARIABLE } from './files/write-fault';
export {
  fsyncDirectory,
  removeStaleTempFiles,
  tempFileName,
  type WriteFileAtomicOptions,
  writeFileAtomic,
} from './files/write-file-atomic';
export { writeFileAtomicAsync } from './files/write-file-atomic-async';
export { canonicalJson } from './json/canonical-json';
export { type JsonErrorLocation, locateJsonError } from './json/locate-json-error';
export { DEFAULT_ORPHAN_GRACE_MS, endOrphanGroup, isRecordedGroupLeader } from './process/end-orphan-group';
export {
  groupHasRunningMembers,
  signalGroup,
  terminateGroup,
  terminateGroupSync,
} from './process/process-group';
export {
  isPidAlive,
  isRecordedProcessAlive,
  listProcessGroup,
  type ProcessStat,
  procReadable,
  readProcessStartTime,
  readProcessStat,
} from './process/process-liveness';
export { sleepSync } from './process/sleep-sync';
export { ISO_INSTANT_FORM, parseIsoInstant } from './time/parse-iso-instant';
