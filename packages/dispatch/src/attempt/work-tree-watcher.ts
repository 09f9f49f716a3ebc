import { type FSWatcher, watch } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';

/** Directory names never watched: version control and installed dependencies. */
export const IGNORED_DIRECTORY_NAMES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** Options of {@link watchWorkTree}. */
export interface WatchWorkTreeOptions {
  /** The trees to watch (the agent's cwd and added directories). */
  readonly roots: readonly string[];
  /** Absolute paths whose changes do not count (e.g. the attempt files' directory). */
  readonly ignorePaths?: readonly string[];
  /**
   * Called on every change of a file or directory in a watched tree, with its path when the
   * platform names it (`watch` mode); undefined when a polling scan saw the tree change.
   */
  readonly onChange: (path: string | undefined) => void;
  /** Scan interval of the polling fallback, ms (default 5000). */
  readonly pollMs?: number;
  /** Force the polling fallback (tests; platforms without inotify-like watches). */
  readonly forcePolling?: boolean;
}

/** A running work-tree watcher. */
export interface WorkTreeWatcher {
  /** `watch` (one fs.watch per directory) or `poll` (periodic mtime scan). */
  readonly mode: () => 'watch' | 'poll';
  close(): void;
}

/**
 * Watches the agent's work tree for file changes (the no-progress clock). One non-recursive
 * `fs.watch` per directory, skipping `.git/`, `node_modules/` and `ignorePaths`, with directories
 * created later added as they appear. (Node 20's `recursive: true` on Linux walks and watches
 * every file, node_modules included, synchronously — far heavier than this.) When a watch cannot
 * be set up (inotify limits: ENOSPC, EMFILE) it falls back to a polling scan of mtimes and sizes
 * every `pollMs`.
 */
export function watchWorkTree(options: WatchWorkTreeOptions): WorkTreeWatcher {
  const ignore = (options.ignorePaths ?? []).map((path) => resolve(path));
  const isIgnored = (path: string): boolean => {
    for (const part of path.split(sep)) if (IGNORED_DIRECTORY_NAMES.has(part)) return true;
    return ignore.some((prefix) => path === prefix || path.startsWith(prefix + sep));
  };
  const roots = [...new Set(options.roots.map((root) => resolve(root)))];
  const watchers = new Map<string, FSWatcher>();
  let closed = false;
  let mode: 'watch' | 'poll' = options.forcePolling ? 'poll' : 'watch';
  let pollTimer: NodeJS.Timeout | undefined;

  const closeWatchers = () => {
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };

  const startPolling = () => {
    mode = 'poll';
    closeWatchers();
    const pollMs = options.pollMs ?? 5_000;
    let previous: string | undefined;
    let scanning = false;
    const scan = async () => {
      if (closed || scanning) return;
      scanning = true;
      try {
        let count = 0;
        let mtimes = 0;
        let sizes = 0;
        const walk = async (directory: string): Promise<void> => {
          let entries: import('node:fs').Dirent[];
          try {
            entries = await readdir(directory, { withFileTypes: true });
          } catch {
            return;
          }
          for (const entry of entries) {
            const path = join(directory, entry.name);
            if (isIgnored(path)) continue;
            try {
              const info = await stat(path);
              count += 1;
              mtimes += info.mtimeMs;
              sizes += info.size;
            } catch {
              continue;
            }
            if (entry.isDirectory()) await walk(path);
          }
        };
        for (const root of roots) await walk(root);
        const signature = `${count}:${mtimes}:${sizes}`;
        if (previous !== undefined && signature !== previous && !closed) options.onChange(undefined);
        previous = signature;
      } finally {
        scanning = false;
      }
    };
    void scan();
    pollTimer = setInterval(() => void scan(), pollMs);
    pollTimer.unref();
  };

  const addDirectory = async (directory: string): Promise<void> => {
    if (closed || mode === 'poll' || watchers.has(directory) || isIgnored(directory)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(directory, { persistent: false }, (_event, filename) => {
        if (closed) return;
        const name = filename === null ? undefined : filename.toString();
        const path = name === undefined ? directory : join(directory, name);
        if (isIgnored(path)) return;
        options.onChange(path);
        // A new directory (or one moved in) gets its own watch.
        if (name !== undefined) {
          stat(path).then(
            (info) => {
              if (info.isDirectory()) void addDirectory(path);
            },
            () => {},
          );
        }
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return;
      if (!closed && mode === 'watch') startPolling();
      return;
    }
    watcher.on('error', () => {
      watcher.close();
      watchers.delete(directory);
    });
    watchers.set(directory, watcher);
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) await addDirectory(join(directory, entry.name));
    }
  };

  if (mode === 'poll') startPolling();
  else for (const root of roots) void addDirectory(root);

  return {
    mode: () => mode,
    close() {
      closed = true;
      closeWatchers();
      if (pollTimer) clearInterval(pollTimer);
    },
  };
}
