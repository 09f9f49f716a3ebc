import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DashboardSource } from '../data/dashboard-source';

/** What changed: the pages that should fetch again. */
export type ChangeTopic = 'pools' | 'runs' | 'workflows' | 'swarm';

/** How often the home is checked for changes while a page listens (ms). */
export const DEFAULT_LIVE_POLL_MS = 250;

/** The most pages listening at once (one event stream each); more are refused with 503. */
export const MAX_LIVE_CLIENTS = 32;

/** How many of the newest run and workflow directories a check looks at. */
export const NEWEST_CHECKED = 20;

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/** `name:mtime` of the newest `NEWEST_CHECKED` directories' `file`, plus how many there are. */
function newestFiles(dir: string, file: string): string {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 'none';
  }
  names.sort();
  const newest = names.slice(-NEWEST_CHECKED);
  const extra = file === 'state.json' ? ['events.jsonl'] : [];
  return `${names.length}|${newest
    .map((name) => [file, ...extra].map((f) => `${name}:${mtime(join(dir, name, f))}`).join(','))
    .join(';')}`;
}

/**
 * Watches a home for changes by polling cheap versions: the store's change version
 * (`store.changeVersion()`: SQLite's `PRAGMA data_version`, Postgres's next transaction id — it
 * changes when another process, on any host sharing the store, commits: a run recorded, an
 * attempt ended, a meter reading, a lease), the config files' times, and the newest run records
 * and workflow states. Listeners hear the topics that changed. It polls only while someone
 * listens, every `pollMs`.
 */
export class LiveChanges {
  private readonly source: DashboardSource;
  private readonly pollMs: number;
  private readonly listeners = new Set<(topics: readonly ChangeTopic[]) => void>();
  private timer: NodeJS.Timeout | undefined;
  private last: Record<ChangeTopic, string> | undefined;

  constructor(source: DashboardSource, pollMs = DEFAULT_LIVE_POLL_MS) {
    this.source = source;
    this.pollMs = pollMs;
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** The current versions, one string per topic. */
  async versions(): Promise<Record<ChangeTopic, string>> {
    const paths = this.source.paths;
    let db = 'none';
    try {
      const runtime = await this.source.current();
      const store = runtime.store;
      if (store !== undefined) db = await store.changeVersion();
    } catch (error) {
      db = `error ${(error as Error).message}`;
    }
    const config = `${mtime(paths.statePath)}|${mtime(paths.labelsPath)}`;
    return {
      pools: `${db}|${config}`,
      runs: `${db}|${newestFiles(join(paths.home, 'runs'), 'run.json')}`,
      workflows: newestFiles(paths.workflowsDir, 'state.json'),
      swarm: `${db}|${config}`,
    };
  }

  /** Takes the current versions as the ones later checks compare with (when none are taken yet). */
  async baseline(): Promise<void> {
    if (this.last === undefined) this.last = await this.versions();
  }

  /** Adds a listener; returns the function that removes it. */
  listen(listener: (topics: readonly ChangeTopic[]) => void): () => void {
    this.listeners.add(listener);
    if (this.timer === undefined) this.schedule();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      void this.check().finally(() => {
        if (this.timer !== undefined && this.listeners.size > 0) this.schedule();
      });
    }, this.pollMs);
  }

  /** Compares the versions with the last check and tells the listeners what changed. */
  async check(): Promise<ChangeTopic[]> {
    const now = await this.versions();
    const before = this.last;
    this.last = now;
    if (before === undefined) return [];
    const changed = (Object.keys(now) as ChangeTopic[]).filter((topic) => now[topic] !== before[topic]);
    if (changed.length > 0) for (const listener of [...this.listeners]) listener(changed);
    return changed;
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.last = undefined;
  }
}
