import type { FileLockOptions } from '../files/file-lock';
import { type HomeRef, toHomePaths } from '../home/home-paths';
import { type ConfigFileSpec, type Mutator, readConfigFile, updateConfigFile } from './config-file';
import { emptyState, type StateFile, stateFileSchema } from './state-file-schema';

const stateSpec: ConfigFileSpec<StateFile> = { schema: stateFileSchema, empty: emptyState };

/**
 * Read `state.json` of a home. A missing file is the empty state (no pools, default config) and
 * nothing is created.
 * @throws ConfigFileError naming the file and field when the file is invalid.
 */
export function readState(home: HomeRef): StateFile {
  return readConfigFile(toHomePaths(home).statePath, stateSpec);
}

/**
 * Change `state.json` safely: under the file's exclusive lock, re-read and validate it, apply
 * `mutate` to a copy (mutate in place or return a replacement), validate the result, and write it
 * atomically, keeping the previous version as `state.json.bak`. Two processes updating at once never
 * lose each other's change. Returns the state as written (unchanged state: nothing is written).
 *
 * @throws ConfigFileError when the current file is invalid (it is left untouched) or the result
 * would be invalid (`kind: 'rejected-update'`, nothing written).
 * @throws FileLockTimeoutError when another process holds the lock past `timeoutMs`.
 *
 * @example
 * ```ts
 * updateState(home, (state) => {
 *   state.config.inflightPenaltyPct = 0;
 * });
 * ```
 */
export function updateState(home: HomeRef, mutate: Mutator<StateFile>, options?: FileLockOptions): StateFile {
  return updateConfigFile(toHomePaths(home).statePath, stateSpec, mutate, options).value;
}
