import { ConfigFileError } from '../errors/config-file-error';
import { InvalidLabelError } from '../errors/invalid-label-error';
import { type KnownPool, UnknownPoolError } from '../errors/unknown-pool-error';
import type { FileLockOptions } from '../files/file-lock';
import { type HomeRef, toHomePaths } from '../home/home-paths';
import {
  type ConfigFileSpec,
  type Mutator,
  readConfigFile,
  recoveryFor,
  updateConfigFile,
} from './config-file';
import { LABEL_PATTERN } from './patterns';
import { emptyLabels, type PoolLabelsFile, poolLabelsFileSchema } from './pool-labels-schema';
import { readState } from './state-file';
import type { StateFile } from './state-file-schema';

const labelsSpec: ConfigFileSpec<PoolLabelsFile> = { schema: poolLabelsFileSchema, empty: emptyLabels };

/**
 * Read `pool-labels.json` of a home; a missing file means no labels (nothing is created).
 * @throws ConfigFileError when the file is invalid.
 */
export function readLabels(home: HomeRef): PoolLabelsFile {
  return readConfigFile(toHomePaths(home).labelsPath, labelsSpec);
}

/**
 * Read-modify-write `pool-labels.json` under its exclusive lock (same guarantees as
 * `updateState`). Prefer {@link setLabel} and {@link clearLabel}, which also apply the rules that
 * need state.json.
 */
export function updateLabels(
  home: HomeRef,
  mutate: Mutator<PoolLabelsFile>,
  options?: FileLockOptions,
): PoolLabelsFile {
  return updateConfigFile(toHomePaths(home).labelsPath, labelsSpec, mutate, options).value;
}

/**
 * The first label in `labels` that equals the id of a configured pool other than its own
 * (routing.md: a label is never another pool's id), or undefined.
 */
export function findLabelEqualToPoolId(
  labels: PoolLabelsFile,
  state: StateFile,
): { readonly poolId: string; readonly label: string } | undefined {
  const ids = new Set(state.pools.map((pool) => pool.id));
  for (const [poolId, label] of Object.entries(labels.labels)) {
    if (label !== poolId && ids.has(label)) return { poolId, label };
  }
  return undefined;
}

/**
 * Checks pool-labels.json against state.json: no label may equal the id of another configured
 * pool (the file's own schema sees only its own keys). Commands stop on it as on any invalid file.
 * @throws ConfigFileError naming pool-labels.json, the field `labels.<pool id>` and how to recover.
 */
export function assertLabelsFitState(home: HomeRef, labels: PoolLabelsFile, state: StateFile): void {
  const clash = findLabelEqualToPoolId(labels, state);
  if (clash === undefined) return;
  const { labelsPath, statePath } = toHomePaths(home);
  const fieldPath = `labels.${clash.poolId}`;
  throw new ConfigFileError({
    filePath: labelsPath,
    kind: 'invalid-schema',
    fieldPath,
    problem: `label "${clash.label}" equals the id of pool ${clash.label} in ${statePath}; a label is never another pool's id`,
    recovery: recoveryFor(labelsPath, fieldPath),
  });
}

/** The label people see for a pool: its label, or its id when it has none. */
export function poolLabel(poolId: string, labels: PoolLabelsFile): string {
  return Object.hasOwn(labels.labels, poolId) ? (labels.labels[poolId] as string) : poolId;
}

/**
 * Resolve what a user typed for a pool, a label or an id, to the pool id.
 *
 * An exact pool id wins over a label (ids are durable; `pools add` refuses an id that is a label, and
 * {@link assertLabelsFitState} a label that is an id). Labels of pools no longer in state.json are ignored.
 * @throws UnknownPoolError listing every configured pool as `id (label)`.
 */
export function resolvePoolRef(ref: string, state: StateFile, labels: PoolLabelsFile): string {
  if (state.pools.some((pool) => pool.id === ref)) return ref;
  for (const pool of state.pools) {
    if (labels.labels[pool.id] === ref) return pool.id;
  }
  throw new UnknownPoolError({ ref, knownPools: knownPools(state, labels) });
}

function knownPools(state: StateFile, labels: PoolLabelsFile): KnownPool[] {
  return state.pools.map((pool) => {
    const label = labels.labels[pool.id];
    return label === undefined ? { id: pool.id } : { id: pool.id, label };
  });
}

/**
 * Check a label against the rules (routing.md, "Pool display labels"): not empty, no whitespace
 * or control characters, not another pool's id, and not already another pool's label.
 * @throws InvalidLabelError naming the broken rule.
 */
export function validateLabel(poolId: string, label: string, state: StateFile, labels: PoolLabelsFile): void {
  if (label === '') throw new InvalidLabelError({ label, poolId, reason: 'empty' });
  if (!LABEL_PATTERN.test(label)) throw new InvalidLabelError({ label, poolId, reason: 'whitespace' });
  const otherIds = new Set([...state.pools.map((pool) => pool.id), ...Object.keys(labels.labels)]);
  otherIds.delete(poolId);
  if (otherIds.has(label)) {
    throw new InvalidLabelError({ label, poolId, reason: 'equals-pool-id', conflictingPoolId: label });
  }
  for (const [otherId, otherLabel] of Object.entries(labels.labels)) {
    if (otherId !== poolId && otherLabel === label) {
      throw new InvalidLabelError({ label, poolId, reason: 'duplicate', conflictingPoolId: otherId });
    }
  }
}

/**
 * Set a pool's display label (`bullswarm pools label <pool> <label>`). `ref` is the pool's id or
 * current label. Setting a pool's label to its own id clears the label (the id is what shows
 * without one). Returns the pool id and the label now in effect.
 *
 * @throws UnknownPoolError when `ref` names no configured pool.
 * @throws InvalidLabelError when the label breaks a rule.
 */
export function setLabel(
  home: HomeRef,
  ref: string,
  label: string,
  options?: FileLockOptions,
): { readonly poolId: string; readonly label: string } {
  const state = readState(home);
  let poolId = ref;
  updateLabels(
    home,
    (labels) => {
      assertLabelsFitState(home, labels, state);
      poolId = resolvePoolRef(ref, state, labels);
      if (label === poolId) {
        delete labels.labels[poolId];
        return;
      }
      validateLabel(poolId, label, state, labels);
      labels.labels[poolId] = label;
    },
    options,
  );
  return { poolId, label };
}

/**
 * Remove a pool's display label (`bullswarm pools label <pool> --clear`). `ref` is the pool's id
 * or its label; a label left behind by a pool no longer in state.json can be cleared by that id.
 * Returns whether a label was removed.
 * @throws UnknownPoolError when `ref` names neither a configured pool nor a labelled one.
 */
export function clearLabel(home: HomeRef, ref: string, options?: FileLockOptions): boolean {
  const state = readState(home);
  let removed = false;
  updateLabels(
    home,
    (labels) => {
      assertLabelsFitState(home, labels, state);
      const poolId = Object.hasOwn(labels.labels, ref) ? ref : resolvePoolRef(ref, state, labels);
      removed = Object.hasOwn(labels.labels, poolId);
      delete labels.labels[poolId];
    },
    options,
  );
  return removed;
}

/** One row of {@link listLabels}. */
export interface PoolLabelRow {
  readonly poolId: string;
  readonly label: string;
  /** False for a label whose pool is no longer in state.json (it is kept, and ignored). */
  readonly configured: boolean;
}

/** Every label of a home, sorted by pool id (`bullswarm pools label --list`). */
export function listLabels(home: HomeRef): PoolLabelRow[] {
  const labels = readLabels(home);
  const state = readState(home);
  assertLabelsFitState(home, labels, state);
  const configured = new Set(state.pools.map((pool) => pool.id));
  return Object.entries(labels.labels)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([poolId, label]) => ({ poolId, label, configured: configured.has(poolId) }));
}
