import { readProcessStartTime } from '@bullswarm/connectors/internal';
import type { AsyncBullswarmStore, StoreMigrations } from '@bullswarm/store';
import { WorkflowError } from '../errors/workflow-error';

/** The store namespace of the workflow engine's tables. */
export const WORKFLOW_NAMESPACE = 'workflow';

/** The claim scope of a workflow run in the store's ownership claims (`store.claims`). */
export const WORKFLOW_RUN_SCOPE = 'workflow-run';

/**
 * The workflow engine's tables in the shared store (append-only: never edit a released step).
 *
 * 1. `workflow_owners`: the one process driving each run (SQLite only; Postgres stores never had
 *    it, so the step is nothing there).
 * 2. Retired: run ownership is the store's claims now (`store_claims`, scope `workflow-run`), which
 *    both engines share and which other hosts judge by heartbeat. The rows of runs being driven
 *    when the home is upgraded move over (the bare hostname they carry is still this host's, so
 *    their pid and start time keep their meaning), and the table goes: an older bullswarm on the
 *    upgraded home then fails to claim a run, loudly, rather than drive one that a newer process
 *    holds.
 */
export const workflowMigrations: StoreMigrations = {
  namespace: WORKFLOW_NAMESPACE,
  migrations: [
    {
      sqlite: `CREATE TABLE workflow_owners (
      run_id TEXT PRIMARY KEY,
      pid INTEGER NOT NULL,
      pid_start TEXT,
      host TEXT NOT NULL,
      token TEXT NOT NULL,
      claimed_at INTEGER NOT NULL
    )`,
      postgres: 'SELECT 1',
    },
    {
      sqlite: `INSERT INTO store_claims (scope, name, host, pid, pid_start_time, token, claimed_at, heartbeat_at)
      SELECT '${WORKFLOW_RUN_SCOPE}', run_id, host, pid, pid_start, token, claimed_at, claimed_at
      FROM workflow_owners WHERE true
      ON CONFLICT (scope, name) DO NOTHING;
    DROP TABLE workflow_owners;`,
      postgres: 'SELECT 1',
    },
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
  /** Gives the run back; never throws (a store that cannot be written leaves a row of a soon-dead process). */
  release(): Promise<void>;
}

/** Applies the workflow tables to a store (once across all processes and hosts). */
export async function ensureWorkflowTables(
  store: Pick<AsyncBullswarmStore, 'ensureMigrations'>,
): Promise<void> {
  await store.ensureMigrations(workflowMigrations);
}

/**
 * Claims run `runId` for this process, atomically: a claim of the store (`store.claims`, scope
 * `workflow-run`), which reads the run's row, judges its holder and takes it over only when that
 * holder is gone, in one write transaction — on SQLite one machine's processes, on a shared
 * Postgres every machine's. A holder on this host is alive while its pid and start time are; a
 * holder on another host while its heartbeat is within the TTL (the store renews this process's
 * claim while it drives the run). Any number of processes racing for one run — also over a dead
 * owner — leave exactly one owner; the others get `run-busy` naming the process (and, on another
 * machine, the host) that drives it. The claim is held until `release()` or until this process
 * dies (the next claimer on this host sees a dead pid; other hosts wait out the TTL).
 *
 * A second claim by the same process while the first is held is `run-busy` too.
 *
 * @throws WorkflowError `run-busy`
 */
export async function claimRun(store: AsyncBullswarmStore, runId: string): Promise<RunClaim> {
  await ensureWorkflowTables(store);
  const outcome = await store.claims.claim(WORKFLOW_RUN_SCOPE, runId);
  if (!outcome.claimed) {
    const holder = outcome.holder;
    const who = holder.local ? `process ${holder.pid}` : `process ${holder.pid} on ${holder.host}`;
    throw new WorkflowError({
      kind: 'run-busy',
      runId,
      message: `run ${runId} is being driven by ${who}; watch it with \`bullswarm workflow watch ${runId}\``,
    });
  }
  const startTime = readProcessStartTime(process.pid);
  const owner: RunOwner = { pid: process.pid, ...(startTime === undefined ? {} : { startTime }) };
  const claim = outcome.claim;
  return {
    owner,
    release: async () => {
      try {
        await claim.release();
      } catch {
        // A store that cannot be written any more: the row names this (soon dead) process, so the
        // next claimer takes it over (this host: at once; another: after the TTL).
      }
    },
  };
}
