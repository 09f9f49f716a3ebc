import { signalGroup } from './process-group';
import { isPidAlive, listProcessGroup, type ProcessStat, readProcessStat } from './process-liveness';
import { sleepSync } from './sleep-sync';

/** The default grace between SIGTERM and SIGKILL of an orphaned worker group (ms). */
export const DEFAULT_ORPHAN_GRACE_MS = 3_000;

/** How often the follow-up looks whether the group has gone (ms). */
const POLL_MS = 50;

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

/** SIGKILL to one process (not a group). */
function killMember(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already (ESRCH) or not ours to signal (EPERM): nothing more to do for it.
  }
}

interface Ending {
  timer: NodeJS.Timeout | undefined;
  /** One look: SIGKILL when the grace has passed; true once nothing is left to do. */
  step(): boolean;
}

/** Groups this process is ending now, by `<pid>/<startTime>`: a reap re-run after a busy rollback signals once. */
const ending = new Map<string, Ending>();

/**
 * On `process.exit()` (the CLI exits as soon as its command is done) a pending follow-up cannot
 * wait for its timer: it finishes synchronously, polling until the group is gone or the grace has
 * passed, so a worker that ignores SIGTERM still gets its SIGKILL. Installed only while a
 * follow-up is pending.
 */
function finishOnExit(): void {
  for (const [key, end] of ending) {
    clearTimeout(end.timer);
    while (!end.step()) sleepSync(POLL_MS);
    ending.delete(key);
  }
  process.removeListener('exit', finishOnExit);
}

/**
 * Ends the process group of an orphaned worker — an agent whose dispatching bullswarm process
 * died without ending it (kill -9) — when, and only when, its leader is provably the recorded
 * worker ({@link isRecordedGroupLeader}). Returns whether SIGTERM was sent. The store's in-flight
 * ledger calls it when it reaps a stale entry; it is the process-group killer for a group this
 * process did not start (`terminateGroup` in ./process-group.ts is the one for the groups it did).
 *
 * SIGTERM goes to the group at once. The SIGKILL follow-up never blocks the caller (a reap may run
 * inside a write transaction other processes wait on): a timer looks every 50 ms and, once
 * `graceMs` has passed with a member still running, sends SIGKILL — to the group while its leader
 * is still the recorded worker, otherwise to each member seen at SIGTERM time that is still the
 * same process (pid, start time, group) — then stops. The timer keeps this Node process alive for
 * at most `graceMs`; if the process calls `process.exit()` first, an `exit` listener finishes the
 * follow-up synchronously (at most the rest of the grace, and only while a member still runs).
 */
export function endOrphanGroup(pid: number, startTime: string, graceMs: number): boolean {
  const key = `${pid}/${startTime}`;
  if (ending.has(key)) return true;
  if (!isRecordedGroupLeader(pid, startTime)) return false;
  const members = listProcessGroup(pid);
  signalGroup(pid, 'SIGTERM');
  const deadline = performance.now() + graceMs;
  const end: Ending = {
    timer: undefined,
    step() {
      const leaderStill = isRecordedGroupLeader(pid, startTime);
      const left = members.filter((member) => sameProcess(member, pid));
      if (!leaderStill && left.length === 0) return true;
      if (performance.now() < deadline) return false;
      if (leaderStill) signalGroup(pid, 'SIGKILL');
      else for (const member of left) killMember(member.pid);
      return true;
    },
  };
  const tick = () => {
    if (end.step()) {
      ending.delete(key);
      if (ending.size === 0) process.removeListener('exit', finishOnExit);
      return;
    }
    end.timer = setTimeout(tick, Math.min(POLL_MS, Math.max(0, deadline - performance.now())));
  };
  if (ending.size === 0) process.on('exit', finishOnExit);
  ending.set(key, end);
  end.timer = setTimeout(tick, Math.min(POLL_MS, graceMs));
  return true;
}
