import { signalGroup, terminateGroupSync } from '@bullswarm/connectors/internal';

/** One piece of work this process has in flight: its ledger entry and, once spawned, its worker. */
export interface GuardedWork {
  /** Attach the worker's pid (the leader of its process group). */
  setWorkerPid(pid: number): void;
  /** The work ended normally: forget it. */
  done(): void;
  /** The signal that interrupted this work (its worker was ended by the handler), if any. */
  readonly interruptedBy: NodeJS.Signals | undefined;
}

interface Entry {
  /** Gives the ledger entry back: at once on SQLite, a round trip on Postgres (then awaited, bounded). */
  release: () => unknown;
  killGraceMs: number;
  workerPid?: number;
  interruptedBy?: NodeJS.Signals;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const entries = new Set<Entry>();
const handlers = new Map<NodeJS.Signals, () => void>();
let exitHandler: (() => void) | undefined;

/** The grace a signal handler gives a worker group before SIGKILL, at most (ms). */
const MAX_HANDLER_GRACE_MS = 3_000;
/**
 * How long a signal handler waits for releases still on their way to a Postgres store before it
 * re-raises (ms). A release that does not make it is reaped: at once by this machine's next
 * process (the pid is gone), by other hosts after the heartbeat TTL.
 */
export const MAX_RELEASE_WAIT_MS = 2_000;

function uninstall(): void {
  for (const [signal, handler] of handlers) process.removeListener(signal, handler);
  handlers.clear();
  if (exitHandler) process.removeListener('exit', exitHandler);
  exitHandler = undefined;
}

function onSignal(signal: NodeJS.Signals): void {
  const pending = [...entries];
  entries.clear();
  uninstall();
  for (const entry of pending) {
    entry.interruptedBy = signal;
    if (entry.workerPid !== undefined) signalGroup(entry.workerPid, 'SIGTERM');
  }
  for (const entry of pending) {
    if (entry.workerPid !== undefined) {
      terminateGroupSync(entry.workerPid, Math.min(entry.killGraceMs, MAX_HANDLER_GRACE_MS));
    }
  }
  const waits: Promise<unknown>[] = [];
  for (const entry of pending) {
    try {
      const released = entry.release();
      if (released instanceof Promise) waits.push(released.catch(() => {}));
    } catch {
      // The store may be closed already; the dead pid is reaped by the next ledger list.
    }
  }
  // Re-raise with the default action, unless the program listens itself (it decides then).
  const reraise = () => {
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  if (waits.length === 0) {
    reraise();
    return;
  }
  // A release over the network (SQLite's happened inside the call): wait for it, bounded. The
  // process stays alive meanwhile: the handlers are gone, so a second signal ends it at once.
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, MAX_RELEASE_WAIT_MS);
  });
  void Promise.race([Promise.all(waits), bound]).then(() => {
    clearTimeout(timer);
    reraise();
  });
}

function install(): void {
  if (handlers.size > 0) return;
  for (const signal of SIGNALS) {
    const handler = () => onSignal(signal);
    handlers.set(signal, handler);
    process.on(signal, handler);
  }
  // process.exit() with work in flight: nothing can wait any more, so the groups get SIGTERM and
  // the ledger entries are released (a crash without this is covered by the ledger's reaping).
  exitHandler = () => {
    for (const entry of entries) {
      if (entry.workerPid !== undefined) signalGroup(entry.workerPid, 'SIGTERM');
      try {
        entry.release();
      } catch {
        // Reaped later.
      }
    }
    entries.clear();
  };
  process.on('exit', exitHandler);
}

/**
 * Guards one in-flight piece of work against SIGINT/SIGTERM of this process: while any is
 * guarded, handlers are installed that end every worker's process group (SIGTERM, SIGKILL after
 * the grace, at most 3 s), release every ledger entry, uninstall themselves and re-raise the
 * signal — unless the program has its own listener for that signal, which then decides whether
 * to exit (dispatch then ends the task as `canceled`, never retrying work the user interrupted).
 * The handlers are removed when the last guarded work is done.
 */
export function guardInFlight(release: () => unknown, killGraceMs: number): GuardedWork {
  const entry: Entry = { release, killGraceMs };
  entries.add(entry);
  install();
  return {
    setWorkerPid(pid) {
      entry.workerPid = pid;
    },
    done() {
      entries.delete(entry);
      if (entries.size === 0) uninstall();
    },
    get interruptedBy() {
      return entry.interruptedBy;
    },
  };
}
