import { readFileSync } from 'node:fs';
import { listProcessGroup, readProcessStat } from '@bullswarm/store';

/** Sends `signal` to the process group `pgid` (a detached child's pid); false when it is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return false;
    if (code === 'EPERM') return true;
    throw error;
  }
}

let procReadable: boolean | undefined;
function hasProc(): boolean {
  if (procReadable === undefined) {
    // The store reads `/proc/<pid>/stat` the Linux way only.
    procReadable = false;
    if (process.platform === 'linux') {
      try {
        readFileSync('/proc/self/stat', 'utf8');
        procReadable = true;
      } catch {
        // No /proc mounted: the kill(pid, 0) answers stand.
      }
    }
  }
  return procReadable;
}

/**
 * Whether a process is running: it exists and (where `/proc` shows it) is not a zombie. A zombie
 * has ended; it only waits for a parent to reap it — which never happens when the container's
 * init does not reap orphans, so `kill -0` alone would call it alive forever.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  if (!hasProc()) return true;
  const stat = readProcessStat(pid);
  if (stat === undefined) return false;
  return stat.state !== 'Z' && stat.state !== 'X';
}

/**
 * Whether the process group `pgid` still has a running (non-zombie) member. On Linux it scans
 * `/proc`; elsewhere `kill(-pgid, 0)` answers (zombies count as members there).
 */
export function groupHasRunningMembers(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (!hasProc()) return true;
  return listProcessGroup(pgid).length > 0;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Ends a whole process group: SIGTERM to the group, then — once `graceMs` has passed with a
 * member still running — SIGKILL. Resolves when no member runs (or right after the SIGKILL).
 * `leaderExited` (the direct child's exit) lets the wait finish early.
 */
export async function terminateGroup(
  pgid: number,
  graceMs: number,
  leaderExited?: Promise<unknown>,
): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const deadline = performance.now() + graceMs;
  if (leaderExited) {
    await Promise.race([leaderExited, sleep(graceMs)]);
  }
  while (groupHasRunningMembers(pgid)) {
    const left = deadline - performance.now();
    if (left <= 0) {
      signalGroup(pgid, 'SIGKILL');
      // Let the kernel deliver it before the caller looks again.
      for (let i = 0; i < 40 && groupHasRunningMembers(pgid); i += 1) await sleep(25);
      return;
    }
    await sleep(Math.min(25, left));
  }
}

/**
 * The synchronous form of {@link terminateGroup}, for a signal handler that must finish before
 * the process re-raises the signal: blocks (Atomics.wait) while it waits.
 */
export function terminateGroupSync(pgid: number, graceMs: number): void {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const deadline = performance.now() + graceMs;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  while (groupHasRunningMembers(pgid)) {
    if (performance.now() >= deadline) {
      signalGroup(pgid, 'SIGKILL');
      return;
    }
    Atomics.wait(cell, 0, 0, 20);
  }
}
