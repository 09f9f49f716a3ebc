import { readFileSync } from 'node:fs';

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
  if (process.platform !== 'linux') return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Field 2 (comm) is in parentheses and may itself contain spaces and parentheses: split after
  // the last ')'. The rest starts at field 3 (state), so field 22 is index 19.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const startTime = rest[19];
  return startTime !== undefined && /^\d+$/.test(startTime) ? startTime : undefined;
}

/**
 * Whether a pid names a live process on this machine: `process.kill(pid, 0)` succeeds, or fails
 * with EPERM (the process exists but belongs to another user). ESRCH means it is gone.
 */
export function isPidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process recorded as `pid` (with `recordedStartTime`, when known) is still the one
 * running: the pid is alive and, when both start times are known, they match. A live pid with a
 * different start time is a reused pid: the recorded process is dead.
 */
export function isRecordedProcessAlive(pid: number, recordedStartTime: string | undefined): boolean {
  if (!isPidAlive(pid)) return false;
  if (recordedStartTime === undefined) return true;
  const current = readProcessStartTime(pid);
  // Unreadable now although it was readable at record time: the process exited in between.
  if (current === undefined) return process.platform !== 'linux';
  return current === recordedStartTime;
}
