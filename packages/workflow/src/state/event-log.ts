import { closeSync, fdatasync, fsyncSync, readFileSync } from 'node:fs';
import {
  appendLine,
  asFileWriteError,
  checkWriteFault,
  openAppendOnly,
} from '@bullswarm/connectors/internal';
import type { WorkflowEvent } from './workflow-event';

/**
 * The append-only `events.jsonl` of a run. Each event is one `write()` of one line: once `append`
 * returns, the line survives a kill -9 of this process (it is in the kernel's page cache). For power
 * loss, lines marked durable (verdicts) are followed by a group-committed `fdatasync`: at most one
 * in flight, and every durable line written while it runs is covered by the next one.
 *
 * A last line torn by a killed writer (kill -9 mid-write, a full disk) is sealed before the first
 * append of this log and after any failed append, so it stays one skipped line and no new event is
 * glued onto it (see `appendLine` in `@bullswarm/connectors/internal`).
 */
export class EventLog {
  private fd: number | undefined;
  private syncing = false;
  private syncWanted = false;
  private syncError: Error | undefined;
  private idleWaiters: (() => void)[] = [];
  /** The last byte may be inside a line: at open, and after a failed append. */
  private mayBeTorn = true;

  /** @throws FileWriteError naming the file when it cannot be opened for appending. */
  constructor(readonly path: string) {
    try {
      this.fd = openAppendOnly(path, 0o600);
    } catch (error) {
      throw asFileWriteError(error, path);
    }
  }

  /**
   * Appends one event line; `durable` asks for a (group-committed) fdatasync.
   * @throws FileWriteError naming the file when the write fails (a full disk): the lines before stay.
   */
  append(event: WorkflowEvent, durable = false): void {
    if (this.fd === undefined) throw new Error(`events log ${this.path} is closed`);
    const check = this.mayBeTorn;
    this.mayBeTorn = true;
    try {
      checkWriteFault(this.path);
      appendLine(this.fd, `${JSON.stringify(event)}\n`, check);
    } catch (error) {
      throw asFileWriteError(error, this.path);
    }
    this.mayBeTorn = false;
    if (durable) this.requestSync();
  }

  private requestSync(): void {
    if (this.syncing) {
      this.syncWanted = true;
      return;
    }
    const fd = this.fd;
    if (fd === undefined) return;
    this.syncing = true;
    this.syncWanted = false;
    fdatasync(fd, (error) => {
      this.syncing = false;
      if (error) this.syncError ??= error;
      if (this.syncWanted && this.fd !== undefined) this.requestSync();
      else for (const wake of this.idleWaiters.splice(0)) wake();
    });
  }

  /** Waits for pending syncs, fsyncs and closes the file. */
  async close(): Promise<void> {
    if (this.syncing) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) {
      try {
        fsyncSync(fd);
      } catch (error) {
        this.syncError ??= error as Error;
      } finally {
        closeSync(fd);
      }
    }
    if (this.syncError) throw asFileWriteError(this.syncError, this.path);
  }
}

/**
 * Reads a run's events. A torn last line (the writer was killed mid-write) and any other line that
 * is not a JSON object with a numeric `seq` are skipped.
 */
export function readEvents(path: string, afterSeq = 0): WorkflowEvent[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return parseEventLines(text, afterSeq);
}

/** Parses event lines (see {@link readEvents}). */
export function parseEventLines(text: string, afterSeq = 0): WorkflowEvent[] {
  const events: WorkflowEvent[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const event = JSON.parse(line) as WorkflowEvent;
      if (
        typeof event === 'object' &&
        event !== null &&
        typeof event.seq === 'number' &&
        event.seq > afterSeq
      ) {
        events.push(event);
      }
    } catch {
      // a torn or foreign line
    }
  }
  return events;
}
