import { InvalidLabelError } from '../errors/invalid-label-error';
import { type KnownPool, UnknownPoolError } from '../errors/unknown-pool-error';
import type { FileLockOptions } from '../files/file-lock';
import { type HomeRef, toHomePaths } from '../home/home-paths';
import { type ConfigFileSpec, type Mutator, readConfigFile, updateConfigFile } from './config-file';
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
 * A label of a configured pool that equals the id of another configured pool: a hand edit (or a
 * path that missed the rule) broke "a label is never another pool's id" (docs/routing.md).
 */
export interface LabelConflict {
  /** The pool whose label it is. */
  readonly poolId: string;
  /** The label, which is also the id of another configured pool. */
  readonly label: string;
}

/**
 * Every label in `labels` that equals the id of another pool in state.json, by pool id. Only labels
 * of configured pools count: labels of pools no longer in state.json are ignored anyway.
 */
export function findLabelConflicts(labels: PoolLabelsFile, state: StateFile): LabelConflict[] {
  const ids = new Set(state.pools.map((pool) => pool.id));
  return Object.entries(labels.labels)
    .filter(([poolId, label]) => label !== poolId && ids.has(poolId) && ids.has(label))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([poolId, label]) => ({ poolId, label }));
}

/**
 * The labels in effect: `labels` without those that equal another configured pool's id
 * ({@link findLabelConflicts}). Such a label is ignored, never fatal: the pool id wins when
 * resolving, and the labelled pool shows as its id, so a bad pool-labels.json never locks a home.
 */
export function usableLabels(labels: PoolLabelsFile, state: StateFile): PoolLabelsFile {
  const conflicts = findLabelConflicts(labels, state);
  if (conflicts.length === 0) return labels;
  const ignored = new Set(conflicts.map((conflict) => conflict.poolId));
  return {
    ...labels,
    labels: Object.fromEntries(Object.entries(labels.labels).filter(([poolId]) => !ignored.has(poolId))),
  };
}

/**
 * The pool whose label in the file is `label` (configured or not), other than `exceptPoolId`;
 * undefined when none. Labels are unique in a valid file, so there is at most one.
 */
export function labelOwner(labels: PoolLabelsFile, label: string, exceptPoolId?: string): string | undefined {
  for (const [poolId, owned] of Object.entries(labels.labels)) {
    if (owned === label && poolId !== exceptPoolId) return poolId;
  }
  return undefined;
}

/** The label people see for a pool: its label, or its id when it has none. */
export function poolLabel(poolId: string, labels: PoolLabelsFile): string {
  return Object.hasOwn(labels.labels, poolId) ? (labels.labels[poolId] as string) : poolId;
}

/**
 * Resolve what a user typed for a pool, a label or an id, to the pool id.
 *
 * An exact pool id wins over a label (ids are durable; `pools add` and `setup` refuse an id that is a
 * label, and a label equal to another pool's id is ignored: see {@link usableLabels}). Labels of
 * pools no longer in state.json are ignored.
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
 * Check a label against the rules (docs/routing.md, "Pool display labels"): not empty, no whitespace
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
  const owner = labelOwner(labels, label, poolId);
  if (owner !== undefined) {
    throw new InvalidLabelError({ label, poolId, reason: 'duplicate', conflictingPoolId: owner });
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
      // Resolution ignores a conflicting label (the id wins); replacing it is how it is repaired.
      poolId = resolvePoolRef(ref, state, usableLabels(labels, state));
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
      const poolId = Object.hasOwn(labels.labels, ref)
        ? ref
        : resolvePoolRef(ref, state, usableLabels(labels, state));
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
  /**
   * The configured pool whose id the label equals (a hand edit: the label is ignored, see
   * {@link usableLabels}), or null.
   */
  readonly equalsPoolId: string | null;
}

/** Every label of a home, sorted by pool id (`bullswarm pools label --list`). */
export function listLabels(home: HomeRef): PoolLabelRow[] {
  const labels = readLabels(home);
  const state = readState(home);
  const configured = new Set(state.pools.map((pool) => pool.id));
  const conflicts = new Set(findLabelConflicts(labels, state).map((conflict) => conflict.poolId));
  return Object.entries(labels.labels)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([poolId, label]) => ({
      poolId,
      label,
      configured: configured.has(poolId),
      equalsPoolId: conflicts.has(poolId) ? label : null,
    }));
}
