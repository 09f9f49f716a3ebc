import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { isRecordedProcessAlive, readProcessStartTime } from '@bullswarm/connectors/internal';
import { WorkflowError } from '../errors/workflow-error';

/** The process driving a run. */
export interface RunOwner {
  readonly pid: number;
  readonly startTime?: string;
}

/**
 * Claims a run for this process: `owner.json` created exclusively with our pid and process start
 * time. An owner file of a dead process (kill -9) is taken over; a live owner throws `run-busy`.
 * Returns the release function (removes the file if it is still ours).
 *
 * Limit: two processes taking over the same dead owner at the same instant could both succeed
 * (unlink + create is not one step); `resume` is a command a person runs, so this is accepted.
 */
export function claimRun(ownerPath: string, runId: string): { owner: RunOwner; release: () => void } {
  const startTime = readProcessStartTime(process.pid);
  const owner: RunOwner = { pid: process.pid, ...(startTime === undefined ? {} : { startTime }) };
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(ownerPath, 'wx', 0o600);
      writeSync(fd, `${JSON.stringify(owner)}\n`);
      closeSync(fd);
      return {
        owner,
        release: () => {
          try {
            const current = JSON.parse(readFileSync(ownerPath, 'utf8')) as RunOwner;
            if (current.pid === owner.pid) unlinkSync(ownerPath);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let current: RunOwner | undefined;
      try {
        current = JSON.parse(readFileSync(ownerPath, 'utf8')) as RunOwner;
      } catch {
        current = undefined;
      }
      if (current && current.pid !== process.pid && isRecordedProcessAlive(current.pid, current.startTime)) {
        throw new WorkflowError({
          kind: 'run-busy',
          runId,
          message: `run ${runId} is being driven by process ${current.pid}; watch it with \`bullswarm workflow watch ${runId}\``,
        });
      }
      try {
        unlinkSync(ownerPath);
      } catch {
        // someone else removed it
      }
    }
  }
  throw new WorkflowError({
    kind: 'run-busy',
    runId,
    message: `run ${runId} was claimed by another process at the same moment`,
  });
}
