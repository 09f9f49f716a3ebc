import { readdirSync, readFileSync } from 'node:fs';

/**
 * Start time of a process, as an opaque string, or undefined when it cannot be read (the process
 * is gone, or the platform has no `/proc`).
 *
 * On Linux it is field 22 of `/proc/<pid>/stat` (`starttime`, clock ticks since boot): together
 * with the pid it identifies one process for the life of the machine, so a pid reused by a newer
 * process is told apart from the one that was recorded. Elsewhere (macOS, Windows) it is undefined
 * and callers fall back to the plain "does the pid exist" check.
 */
export function readProcessStartTime(pid: number): string | undefined {
  const startTime = readProcStatFields(pid)?.[19];
  return startTime !== undefined && /^\d+$/.test(startTime) ? startTime : undefined;
}

/**
 * The fields of `/proc/<pid>/stat` from field 3 (state) on, or undefined off Linux or when the
 * process is gone. Field 2 (comm) is in parentheses and may itself contain spaces and parentheses,
 * so the split starts after the last ')': index 0 is the state, index 19 is field 22 (starttime).
 */
function readProcStatFields(pid: number): string[] | undefined {
  if (process.platform !== 'linux') return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** One process as `/proc/<pid>/stat` shows it (Linux). */
export interface ProcessStat {
  readonly pid: number;
  /** Field 3: `R`, `S`, `Z` (zombie), `X` (dead)… */
  readonly state: string;
  /** Field 5: the process group id. */
  readonly pgrp: number;
  /** Field 22, as {@link readProcessStartTime} returns it. */
  readonly startTime: string | undefined;
}

/** `/proc/<pid>/stat` of one process, or undefined off Linux or when the process is gone. */
export function readProcessStat(pid: number): ProcessStat | undefined {
  const fields = readProcStatFields(pid);
  if (fields === undefined) return undefined;
  const startTime = fields[19];
  return {
    pid,
    state: fields[0] ?? '',
    pgrp: Number(fields[2]),
    startTime: startTime !== undefined && /^\d+$/.test(startTime) ? startTime : undefined,
  };
}

/**
 * The processes of group `pgid` that have not exited (zombies left out), from a scan of `/proc`.
 * Empty off Linux.
 */
export function listProcessGroup(pgid: number): ProcessStat[] {
  if (process.platform !== 'linux') return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const members: ProcessStat[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcessStat(Number(entry));
    if (stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X')
      members.push(stat);
  }
  return members;
}

let procKnown: boolean | undefined;
/** Whether this machine shows processes in `/proc` the Linux way (looked up once). */
export function procReadable(): boolean {
  if (procKnown === undefined) {
    procKnown = false;
    if (process.platform === 'linux') {
      try {
        readFileSync('/proc/self/stat', 'utf8');
        procKnown = true;
      } catch {
        // No /proc mounted: the kill(pid, 0) answers stand.
      }
    }
  }
  return procKnown;
}

/**
 * Whether a pid names a live process on this machine: `process.kill(pid, 0)` succeeds, or fails
 * with EPERM (the process exists but belongs to another user), and on Linux the process is not a
 * zombie — an exited process its parent has not reaped still answers `kill(pid, 0)`, and a crashed
 * bullswarm must never leave a pool looking busy because nobody reaped it (nor wait forever for an
 * agent that has ended, under a container init that does not reap orphans). ESRCH means it is
 * gone; so does a `/proc/<pid>/stat` that vanished after the signal check (our own processes only:
 * another user's may be hidden from `/proc`).
 */
export function isPidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  let ours = true;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
    ours = false;
  }
  if (!procReadable()) return true;
  const state = readProcStatFields(pid)?.[0];
  if (state === undefined) return !ours;
  return state !== 'Z' && state !== 'X';
}

let ownStart: { readonly value: string | undefined } | undefined;
function ownStartTime(): string | undefined {
  ownStart ??= { value: readProcessStartTime(process.pid) };
  return ownStart.value;
}

/**
 * Whether the process recorded as `pid` (with `recordedStartTime`, when known) is still the one
 * running: the pid is alive and, when both start times are known, they match. A live pid with a
 * different start time is a reused pid: the recorded process is dead.
 */
export function isRecordedProcessAlive(pid: number, recordedStartTime: string | undefined): boolean {
  // This process is alive, and its start time never changes: read once, not at every ledger read
  // (a dispatcher's own entries are most of what it judges).
  const own = pid === process.pid;
  if (!own && !isPidAlive(pid)) return false;
  if (recordedStartTime === undefined) return true;
  const current = own ? ownStartTime() : readProcessStartTime(pid);
  // Unreadable now although it was readable at record time: the process exited in between.
  if (current === undefined) return process.platform !== 'linux';
  return current === recordedStartTime;
}
