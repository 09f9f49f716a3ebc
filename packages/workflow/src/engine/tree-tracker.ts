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
  /** Changes seen by snapshots and attributed to this unit. */
  readonly own: Set<string>;
}

/** What a unit changed, as attributed at its end. */
export interface UnitChanges {
  /** Changed paths its `files` allow. */
  readonly own: readonly string[];
  /** Changed paths no running unit's `files` allow: the violation. */
  readonly outside: readonly string[];
  /** Other units that ended in the same snapshot (a violation may be theirs). */
  readonly endedWith: readonly string[];
}

interface Waiter {
  /** The unit being checked; undefined for an absorb (after a gate). */
  readonly key: string | undefined;
  readonly resolve: (changes: UnitChanges) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Enforces `files`: snapshots the work tree when the run starts and whenever units end, and
 * attributes every change since the previous snapshot. Snapshots never overlap: the units that end
 * while one is being taken share the next one (so a 16-wide fan-out does not queue 16 tree walks).
 * A change goes to an ending unit whose `files` match it, else to another running unit whose
 * `files` match (it is that unit's), else it is a violation of the ending unit(s).
 *
 * Limits (documented in the README): with several units running at once, a write that no running
 * unit's `files` allow is blamed on the unit(s) that end next — every unit ending in that snapshot,
 * which may include ones that did not write it (`endedWith` names them); a gate's own changes
 * (build output, caches) are absorbed without a check unless a unit ends in the same snapshot; a
 * file rewritten with the same size within the mtime resolution is not seen; in a git tree, ignored
 * files are not seen.
 */
export class TreeTracker {
  private mode: TreeMode | undefined;
  private last: TreeSnapshot = new Map();
  private readonly tracked = new Map<string, Tracked>();
  private waiting: Waiter[] = [];
  private busy = false;
  /** Snapshots taken after the baseline (tests, benchmarks). */
  snapshots = 0;

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

  /** Snapshots (sharing a snapshot with units ending at the same time) and returns what `key` changed. */
  check(key: string): Promise<UnitChanges> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ key, resolve, reject });
      void this.pump();
    });
  }

  /** Snapshots and attributes changes to running units whose `files` match; the rest is a gate's output. */
  async absorb(): Promise<void> {
    await new Promise<UnitChanges>((resolve, reject) => {
      this.waiting.push({ key: undefined, resolve, reject });
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    if (this.busy) return;
    const mode = this.mode;
    if (!mode) {
      for (const waiter of this.waiting.splice(0))
        waiter.reject(new Error('TreeTracker.init() was not awaited'));
      return;
    }
    this.busy = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0);
        try {
          const now = await snapshotTree(this.cwd, mode, this.excluded);
          this.snapshots++;
          const changed = diffSnapshots(this.last, now);
          this.last = now;
          this.settle(batch, changed);
        } catch (error) {
          for (const waiter of batch) waiter.reject(error);
        }
      }
    } finally {
      this.busy = false;
    }
  }

  private settle(batch: readonly Waiter[], changed: readonly string[]): void {
    const ending = batch.map((waiter) => waiter.key).filter((key): key is string => key !== undefined);
    const outside: string[] = [];
    for (const path of changed) {
      let owner: Tracked | undefined;
      for (const key of ending) {
        const unit = this.tracked.get(key);
        if (unit?.matches(path)) {
          owner = unit;
          break;
        }
      }
      if (!owner) {
        for (const unit of this.tracked.values()) {
          if (unit.matches(path)) {
            owner = unit;
            break;
          }
        }
      }
      if (owner) owner.own.add(path);
      else outside.push(path);
    }
    for (const waiter of batch) {
      if (waiter.key === undefined) {
        waiter.resolve({ own: [], outside: [], endedWith: [] });
        continue;
      }
      const key = waiter.key;
      waiter.resolve({
        own: [...(this.tracked.get(key)?.own ?? [])].sort(),
        outside,
        endedWith: ending.filter((other) => other !== key),
      });
    }
  }
}
