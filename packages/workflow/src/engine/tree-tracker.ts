import { createFilesMatcher } from './glob-match';
import {
  detectTreeMode,
  diffSnapshots,
  snapshotTree,
  type TreeMode,
  type TreeSnapshot,
} from './tree-snapshot';

interface Tracked {
  readonly matches: (path: string) => boolean;
  /** Changes seen by other units' checks and attributed to this one. */
  readonly own: Set<string>;
}

/** What a unit changed, as attributed at its end. */
export interface UnitChanges {
  /** Changed paths its `files` allow. */
  readonly own: readonly string[];
  /** Changed paths no running unit's `files` allow: the violation. */
  readonly outside: readonly string[];
}

/**
 * Enforces `files`: snapshots the work tree when the run starts and whenever a unit ends, and
 * attributes every change since the previous snapshot. A change goes to the unit being checked when
 * its `files` match, else to another running unit whose `files` match (it is that unit's), else it
 * is a violation of the unit being checked.
 *
 * Limits (documented in the README): with several units running at once, a write that no running
 * unit's `files` allow is blamed on the first unit to END after it, which may not be the writer; a
 * gate's own changes (build output, caches) are absorbed without a check; a file rewritten with the
 * same size within the mtime resolution is not seen; in a git tree, ignored files are not seen.
 */
export class TreeTracker {
  private mode: TreeMode | undefined;
  private last: TreeSnapshot = new Map();
  private chain: Promise<unknown> = Promise.resolve();
  private readonly tracked = new Map<string, Tracked>();

  constructor(
    readonly cwd: string,
    private readonly excluded: readonly string[] = [],
  ) {}

  /** Takes the baseline snapshot. */
  async init(): Promise<void> {
    this.mode = await detectTreeMode(this.cwd);
    this.last = await snapshotTree(this.cwd, this.mode, this.excluded);
  }

  /** How the tree is watched (`git` or `walk`), once initialised. */
  get treeMode(): TreeMode['kind'] | undefined {
    return this.mode?.kind;
  }

  /** A unit starts; `files` are its (rendered) globs. */
  register(key: string, files: readonly string[]): void {
    this.tracked.set(key, { matches: createFilesMatcher(files), own: new Set() });
  }

  /** A unit is done (after its check). */
  unregister(key: string): void {
    this.tracked.delete(key);
  }

  /** Snapshots and attributes the changes since the last snapshot; returns what `key` changed. */
  check(key: string): Promise<UnitChanges> {
    return this.serial(async () => {
      const outside = await this.advance(key);
      const own = [...(this.tracked.get(key)?.own ?? [])].sort();
      return { own, outside };
    });
  }

  /** Snapshots and attributes changes to running units whose `files` match; the rest is ignored (a gate's output). */
  absorb(): Promise<void> {
    return this.serial(async () => {
      await this.advance(undefined);
    });
  }

  private async advance(key: string | undefined): Promise<string[]> {
    if (!this.mode) throw new Error('TreeTracker.init() was not awaited');
    const now = await snapshotTree(this.cwd, this.mode, this.excluded);
    const changed = diffSnapshots(this.last, now);
    this.last = now;
    const outside: string[] = [];
    const self = key === undefined ? undefined : this.tracked.get(key);
    for (const path of changed) {
      if (self?.matches(path)) {
        self.own.add(path);
        continue;
      }
      let owner: Tracked | undefined;
      for (const [otherKey, other] of this.tracked) {
        if (otherKey !== key && other.matches(path)) {
          owner = other;
          break;
        }
      }
      if (owner) owner.own.add(path);
      else if (key !== undefined) outside.push(path);
    }
    return outside;
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.chain.then(task, task);
    this.chain = next.catch(() => undefined);
    return next;
  }
}
