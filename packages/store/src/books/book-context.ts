import { readProcessStartTime } from '@bullswarm/connectors/internal';
import type { LivenessRules } from '../hosts/liveness';
import type { StoreHeartbeat } from '../hosts/store-heartbeat';

/** What every book of one open store shares. */
export interface BookContext {
  readonly rules: LivenessRules;
  /** SIGTERM → SIGKILL grace when a reap ends an orphaned worker group of this host. */
  readonly orphanGraceMs: number;
  readonly heartbeat: StoreHeartbeat;
  /**
   * The store cannot be written (SQLite opened read-only, see `openStore`): the writes that only
   * keep a cache or tidy up (meter cache and readings, probe results, reaping) are skipped, as the
   * synchronous store's `writeIfWritable` does; every other write fails naming the database.
   */
  readonly readOnly: boolean;
  /** A pid's start time (this process's is read once). */
  startTimeOf(pid: number): string | undefined;
}

/** The start-time reader of a context: this process's own start time is read once. */
export function startTimeReader(): (pid: number) => string | undefined {
  let own: { value: string | undefined } | undefined;
  return (pid) => {
    if (pid !== process.pid) return readProcessStartTime(pid);
    own ??= { value: readProcessStartTime(pid) };
    return own.value;
  };
}
