import { isPidAlive, listProcessGroup, type ProcessStat, readProcessStat } from './process-liveness';

/** The default grace between SIGTERM and SIGKILL of an orphaned worker group (ms). */
export const DEFAULT_ORPHAN_GRACE_MS = 3_000;

/** How often the follow-up looks whether the group has gone (ms). */
const POLL_MS = 50;

/** Groups this process is ending now, by `<pid>/<startTime>`: a reap re-run after a busy rollback signals once. */
const ending = new Map<string, NodeJS.Timeout>();

/**
 * Whether `pid` is provably the recorded worker: alive (not a zombie), its start time equal to
 * `startTime`, and still the leader of its own process group (its pgid is its pid). Linux only:
 * where start times cannot be read, nothing is provable and the answer is false.
 */
export function isRecordedGroupLeader(pid: number, startTime: string): boolean {
  if (!isPidAlive(pid)) return false;
  const stat = readProcessStat(pid);
  return stat !== undefined && stat.startTime === startTime && stat.pgrp === pid;
}

function sameProcess(member: ProcessStat, pgid: number): boolean {
  const now = readProcessStat(member.pid);
  return (
    now !== undefined &&
    now.startTime === member.startTime &&
    now.pgrp === pgid &&
    now.state !== 'Z' &&
    now.state !== 'X'
  );
}

function kill(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // Gone already (ESRCH) or not ours to signal (EPERM): nothing more to do for it.
  }
}

/**
 * Ends the process group of an orphaned worker — an agent whose dispatching bullswarm process
 * died without ending it (kill -9) — when, and only when, its leader is provably the recorded
 * worker ({@link isRecordedGroupLeader}). Returns whether SIGTERM was sent.
 *
 * SIGTERM goes to the group at once. The SIGKILL follow-up never blocks the caller (a reap may run
 * inside a write transaction other processes wait on): a timer looks every 50 ms and, once
 * `graceMs` has passed with a member still running, sends SIGKILL — to the group while its leader
 * is still the recorded worker, otherwise to each member seen at SIGTERM time that is still the
 * same process (pid, start time, group) — then stops. The timer keeps this Node process alive for
 * at most `graceMs` (so `bullswarm assignments` exits once the group is gone, or after the grace).
 */
export function endOrphanGroup(pid: number, startTime: string, graceMs: number): boolean {
  const key = `${pid}/${startTime}`;
  if (ending.has(key)) return true;
  if (!isRecordedGroupLeader(pid, startTime)) return false;
  const members = listProcessGroup(pid);
  kill(-pid, 'SIGTERM');
  const deadline = performance.now() + graceMs;
  const follow = () => {
    const leaderStill = isRecordedGroupLeader(pid, startTime);
    const left = members.filter((member) => sameProcess(member, pid));
    if (!leaderStill && left.length === 0) {
      ending.delete(key);
      return;
    }
    if (performance.now() < deadline) {
      ending.set(key, setTimeout(follow, Math.min(POLL_MS, Math.max(0, deadline - performance.now()))));
      return;
    }
    if (leaderStill) kill(-pid, 'SIGKILL');
    else for (const member of left) kill(member.pid, 'SIGKILL');
    ending.delete(key);
  };
  ending.set(key, setTimeout(follow, Math.min(POLL_MS, graceMs)));
  return true;
}
