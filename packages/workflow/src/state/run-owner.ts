import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { isRecordedProcessAlive, readProcessStartTime } from '@bullswarm/connectors/internal';
import type { EmbeddedBullswarmStore, StoreMigrations } from '@bullswarm/store';
import { WorkflowError } from '../errors/workflow-error';

/** The store namespace of the workflow engine's tables. */
export const WORKFLOW_NAMESPACE = 'workflow';

/**
 * The workflow engine's tables in the shared store (append-only: never edit a released step).
 *
 * - `workflow_owners`: the one process driving each run. The primary key makes two owners of a run
 *   impossible; a claim reads, judges and replaces the row inside one `BEGIN IMMEDIATE` transaction.
 */
export const workflowMigrations: StoreMigrations = {
  namespace: WORKFLOW_NAMESPACE,
  migrations: [
    `CREATE TABLE workflow_owners (
      run_id TEXT PRIMARY KEY,
      pid INTEGER NOT NULL,
      pid_start TEXT,
      host TEXT NOT NULL,
      token TEXT NOT NULL,
      claimed_at INTEGER NOT NULL
    )`,
  ],
};

/** The process driving a run. */
export interface RunOwner {
  readonly pid: number;
  readonly startTime?: string;
}

/** A held claim on a run: its owner record and the release (idempotent). */
export interface RunClaim {
  readonly owner: RunOwner;
  release(): void;
}

interface OwnerRow {
  pid: number;
  pid_start: string | null;
  host: string;
  token: string;
}

/** Applies the workflow tables to a store (once across all processes). */
export function ensureWorkflowTables(store: EmbeddedBullswarmStore): void {
  if (store.schemaVersion(WORKFLOW_NAMESPACE) < workflowMigrations.migrations.length)
    store.applyMigrations(workflowMigrations);
}

/**
 * Claims run `runId` for this process, atomically: in one write transaction of the shared store it
 * reads the run's `workflow_owners` row, and unless that row names a live process (same pid and
 * process start time on this host, or any process of another host) it replaces the row with this
 * process. Any number of processes racing for one run — also over a dead owner — leave exactly one
 * owner; the others get `run-busy` naming the process that drives it. The claim is held until
 * `release()` (which removes only this claim's row) or until this process dies (the next claimer
 * sees a dead pid and takes over).
 *
 * A second claim by the same process while the first is held is `run-busy` too.
 *
 * @throws WorkflowError `run-busy`
 */
export function claimRun(store: EmbeddedBullswarmStore, runId: string): RunClaim {
  ensureWorkflowTables(store);
  const host = hostname();
  const startTime = readProcessStartTime(process.pid);
  const owner: RunOwner = { pid: process.pid, ...(startTime === undefined ? {} : { startTime }) };
  const token = randomBytes(8).toString('hex');
  const db = store.database;
  const holder = store.transaction((): OwnerRow | undefined => {
    const row = db
      .prepare('SELECT pid, pid_start, host, token FROM workflow_owners WHERE run_id = ?')
      .get(runId) as OwnerRow | undefined;
    if (row !== undefined) {
      const alive = row.host !== host || isRecordedProcessAlive(row.pid, row.pid_start ?? undefined);
      if (alive) return row;
    }
    db.prepare(
      `INSERT INTO workflow_owners (run_id, pid, pid_start, host, token, claimed_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id) DO UPDATE SET pid = excluded.pid, pid_start = excluded.pid_start,
         host = excluded.host, token = excluded.token, claimed_at = excluded.claimed_at`,
    ).run(runId, owner.pid, startTime ?? null, host, token, Date.now());
    return undefined;
  });
  if (holder !== undefined) {
    const who = holder.host === host ? `process ${holder.pid}` : `process ${holder.pid} on ${holder.host}`;
    throw new WorkflowError({
      kind: 'run-busy',
      runId,
      message: `run ${runId} is being driven by ${who}; watch it with \`bullswarm workflow watch ${runId}\``,
    });
  }
  let released = false;
  return {
    owner,
    release: () => {
      if (released) return;
      released = true;
      try {
        store.transaction(() =>
          db.prepare('DELETE FROM workflow_owners WHERE run_id = ? AND token = ?').run(runId, token),
        );
      } catch {
        // A store that cannot be written any more: the row names this (soon dead) process, so the
        // next claimer takes it over.
      }
    },
  };
}
