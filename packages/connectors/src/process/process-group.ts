import { setTimeout as sleep } from 'node:timers/promises';
import { listProcessGroup, procReadable } from './process-liveness';
import { sleepSync } from './sleep-sync';

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

/**
 * Whether the process group `pgid` still has a running (non-zombie) member. On Linux it scans
 * `/proc`; elsewhere `kill(-pgid, 0)` answers (zombies count as members there).
 */
export function groupHasRunningMembers(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (!procReadable()) return true;
  return listProcessGroup(pgid).length > 0;
}

/**
 * The one process-group killer of bullswarm (agents, gates, the store's orphan reaping, interrupt
 * handling). Ends a whole process group: SIGTERM to the group, then — once `graceMs` has passed with a
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
  while (groupHasRunningMembers(pgid)) {
    if (performance.now() >= deadline) {
      signalGroup(pgid, 'SIGKILL');
      return;
    }
    sleepSync(20);
  }
}
