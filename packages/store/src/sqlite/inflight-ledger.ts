import { randomUUID } from 'node:crypto';
import { endOrphanGroup, isRecordedProcessAlive, readProcessStartTime } from '@bullswarm/connectors/internal';
import { type EffortTier, LANES, type Lane } from '@bullswarm/pacing';
import type Database from 'better-sqlite3';
import { StoreInputError } from '../errors/store-input-error';
import type { InflightEntry, InflightLedger } from '../store-types';
import type { BusyRunner } from './busy-retry';
import {
  optionalNumber,
  optionalString,
  requireOneOf,
  requirePid,
  requireString,
  requireTime,
} from './validate-input';

interface InflightRow {
  id: string;
  pool: string;
  action: string;
  lane: string | null;
  tier: string | null;
  started_at: number;
  expected_minutes: number | null;
  pid: number;
  worker_pid: number | null;
  host: string;
  pid_start_time: string | null;
  worker_start_time: string | null;
}

function toEntry(row: InflightRow): InflightEntry {
  return {
    id: row.id,
    poolId: row.pool,
    action: row.action,
    ...(row.lane === null ? {} : { lane: row.lane as Lane }),
    ...(row.tier === null ? {} : { tier: row.tier as EffortTier }),
    startedAt: row.started_at,
    ...(row.expected_minutes === null ? {} : { expectedMinutes: row.expected_minutes }),
    pid: row.pid,
    ...(row.worker_pid === null ? {} : { workerPid: row.worker_pid }),
    host: row.host,
  };
}

/**
 * The cross-process in-flight ledger on SQLite.
 *
 * Reaping: an entry is dead when its `host` is this host and its dispatching pid is gone
 * (`process.kill(pid, 0)` → ESRCH), or that pid now belongs to a newer process (its start time,
 * field 22 of `/proc/<pid>/stat` on Linux, differs from the one recorded). Where start times cannot
 * be read (macOS, Windows) only the pid check applies. Entries recorded on another host (a home
 * shared between machines) are never reaped here: this host cannot see those processes; they are
 * released by their own host.
 *
 * Orphaned workers: {@link setWorkerPid} records the worker's start time beside its pid (the
 * worker leads its own process group). When an entry is reaped because its dispatcher is dead
 * and that worker is provably still running (same pid, same start time, still its group's
 * leader), its group gets SIGTERM, then SIGKILL after the grace, without blocking the caller
 * (see {@link endOrphanGroup}). Anything not provably the worker is never signalled.
 */
export class SqliteInflightLedger implements InflightLedger {
  private readonly insert: Database.Statement;
  private readonly updateWorker: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly selectAll: Database.Statement;
  private readonly selectPool: Database.Statement;
  private readonly selectHost: Database.Statement;
  private readonly startTimes = new Map<number, string | undefined>();

  /** @param orphanGraceMs SIGTERM → SIGKILL grace for an orphaned worker group (see {@link endOrphanGroup}). */
  constructor(
    db: Database.Database,
    private readonly runner: BusyRunner,
    private readonly host: string,
    private readonly orphanGraceMs: number,
  ) {
    this.insert = db.prepare(
      `INSERT INTO inflight (id, pool, action, lane, tier, started_at, expected_minutes, pid, worker_pid, host, pid_start_time)
       VALUES (@id, @pool, @action, @lane, @tier, @started_at, @expected_minutes, @pid, @worker_pid, @host, @pid_start_time)`,
    );
    this.updateWorker = db.prepare('UPDATE inflight SET worker_pid = ?, worker_start_time = ? WHERE id = ?');
    this.remove = db.prepare('DELETE FROM inflight WHERE id = ?');
    this.selectAll = db.prepare('SELECT * FROM inflight ORDER BY started_at, id');
    this.selectPool = db.prepare('SELECT * FROM inflight WHERE pool = ? ORDER BY started_at, id');
    this.selectHost = db.prepare(
      'SELECT id, pid, pid_start_time, worker_pid, worker_start_time FROM inflight WHERE host = ?',
    );
  }

  record(entry: Omit<InflightEntry, 'id' | 'host'> & { readonly id?: string }): InflightEntry {
    const op = 'ledger.record';
    const pid = requirePid(op, 'pid', entry.pid);
    const row: InflightRow = {
      id: entry.id === undefined ? randomUUID() : requireString(op, 'id', entry.id),
      pool: requireString(op, 'poolId', entry.poolId),
      action: requireString(op, 'action', entry.action),
      lane: entry.lane === undefined ? null : requireOneOf(op, 'lane', entry.lane, LANES),
      tier: optionalString(op, 'tier', entry.tier),
      started_at: requireTime(op, 'startedAt', entry.startedAt),
      expected_minutes: optionalNumber(op, 'expectedMinutes', entry.expectedMinutes),
      pid,
      worker_pid: entry.workerPid === undefined ? null : requirePid(op, 'workerPid', entry.workerPid),
      host: this.host,
      pid_start_time: this.startTimeOf(pid) ?? null,
      worker_start_time: null,
    };
    try {
      this.runner.write(op, () => this.insert.run(row));
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw new StoreInputError({
          operation: op,
          field: 'id',
          expected: 'an id not already in flight',
          value: row.id,
        });
      }
      throw error;
    }
    return toEntry(row);
  }

  setWorkerPid(id: string, workerPid: number): void {
    const op = 'ledger.setWorkerPid';
    requirePid(op, 'workerPid', workerPid);
    // Read right after the spawn, before the caller's event loop could reap the child: the pid is
    // still the worker's (a zombie keeps its start time), never a reused one.
    const startTime = readProcessStartTime(workerPid) ?? null;
    this.runner.write(op, () => this.updateWorker.run(workerPid, startTime, id));
  }

  release(id: string): boolean {
    return this.runner.write('ledger.release', () => this.remove.run(id).changes > 0);
  }

  list(filter: { readonly poolId?: string } = {}): InflightEntry[] {
    // A read-only store cannot reap: the entries of dead dispatchers are left out instead.
    const dead = this.runner.readOnly ? new Set(this.deadRows().map((row) => row.id)) : undefined;
    if (dead === undefined) this.reap();
    const rows = this.runner.read('ledger.list', () =>
      filter.poolId === undefined ? this.selectAll.all() : this.selectPool.all(filter.poolId),
    ) as InflightRow[];
    return rows.filter((row) => dead === undefined || !dead.has(row.id)).map(toEntry);
  }

  reap(): number {
    if (this.runner.readOnly) return 0;
    const dead = this.deadRows();
    if (dead.length === 0) return 0;
    const removed = this.runner.write('ledger.reap', () =>
      dead.reduce((count, row) => count + this.remove.run(row.id).changes, 0),
    );
    // The dispatcher died without ending its worker (kill -9): end the orphaned group, but only
    // when its leader is provably the recorded worker (same pid and start time, still leading
    // its group). No recorded start time (an older entry, or no /proc) → nothing is signalled.
    for (const row of dead) {
      if (row.worker_pid !== null && row.worker_start_time !== null) {
        endOrphanGroup(row.worker_pid, row.worker_start_time, this.orphanGraceMs);
      }
    }
    return removed;
  }

  /** This host's entries whose dispatcher is no longer alive (pid and start time). */
  private deadRows(): Pick<
    InflightRow,
    'id' | 'pid' | 'pid_start_time' | 'worker_pid' | 'worker_start_time'
  >[] {
    const rows = this.runner.read('ledger.reap', () => this.selectHost.all(this.host)) as Pick<
      InflightRow,
      'id' | 'pid' | 'pid_start_time' | 'worker_pid' | 'worker_start_time'
    >[];
    const verdicts = new Map<string, boolean>();
    const dead = rows.filter((row) => {
      const key = `${row.pid}/${row.pid_start_time ?? ''}`;
      let alive = verdicts.get(key);
      if (alive === undefined) {
        alive = isRecordedProcessAlive(row.pid, row.pid_start_time ?? undefined);
        verdicts.set(key, alive);
      }
      return !alive;
    });
    return dead;
  }

  /** Start time of a pid; this process's own is read once. */
  private startTimeOf(pid: number): string | undefined {
    if (pid !== process.pid) return readProcessStartTime(pid);
    if (!this.startTimes.has(pid)) this.startTimes.set(pid, readProcessStartTime(pid));
    return this.startTimes.get(pid);
  }
}
