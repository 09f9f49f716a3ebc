import { randomUUID } from 'node:crypto';
import { endOrphanGroup, readProcessStartTime } from '@bullswarm/connectors/internal';
import { type EffortTier, LANES, type Lane } from '@bullswarm/pacing';
import type { SqlSession } from '../engine/sql-session';
import { StoreInputError } from '../errors/store-input-error';
import { judgeHolder } from '../hosts/liveness';
import {
  optionalNumber,
  optionalString,
  requireOneOf,
  requirePid,
  requireString,
  requireTime,
} from '../sqlite/validate-input';
import type { InflightEntry } from '../store-types';
import type { AsyncInflightLedger } from './async-store-types';
import type { BookContext } from './book-context';

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
  heartbeat_at: number | null;
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

const INSERT = `INSERT INTO inflight (id, pool, action, lane, tier, started_at, expected_minutes, pid, worker_pid, host, pid_start_time, heartbeat_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`;
const SELECT_ALL = 'SELECT * FROM inflight ORDER BY started_at, id';

/**
 * The in-flight ledger over the SQL layer (both engines), written once.
 *
 * Reaping (in `list` and `reap`): one read of every entry, then each is judged by
 * {@link judgeHolder} — this host's by the dispatcher's pid and start time (a dead or reused pid
 * is reaped at once, and a provably orphaned worker group is ended, as the synchronous store does);
 * another host's by heartbeat age: reaped once `heartbeat_at` is older than the TTL, not before.
 * The delete of a stale entry re-checks its heartbeat, so a renewal that lands between the read
 * and the delete keeps the entry.
 *
 * `record` is safe to re-send after a lost connection: the id is chosen before the insert, and a
 * second insert of the same entry finds it in place (`ON CONFLICT DO NOTHING`) and succeeds.
 */
export class LedgerBook implements AsyncInflightLedger {
  constructor(
    private readonly sql: SqlSession,
    private readonly context: BookContext,
  ) {}

  async record(entry: Omit<InflightEntry, 'id' | 'host'> & { readonly id?: string }): Promise<InflightEntry> {
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
      host: this.context.rules.hostId,
      pid_start_time: this.context.startTimeOf(pid) ?? null,
      worker_start_time: null,
      heartbeat_at: this.context.rules.now(),
    };
    const inserted = await this.sql.exec(
      INSERT,
      [
        row.id,
        row.pool,
        row.action,
        row.lane,
        row.tier,
        row.started_at,
        row.expected_minutes,
        row.pid,
        row.worker_pid,
        row.host,
        row.pid_start_time,
        row.heartbeat_at,
      ],
      { idempotent: true },
    );
    if (inserted.changes === 0) {
      const existing = await this.sql.get<InflightRow>('SELECT * FROM inflight WHERE id = ?', [row.id]);
      const same =
        existing !== undefined &&
        existing.host === row.host &&
        existing.pid === row.pid &&
        existing.started_at === row.started_at &&
        existing.action === row.action;
      if (!same) {
        throw new StoreInputError({
          operation: op,
          field: 'id',
          expected: 'an id not already in flight',
          value: row.id,
        });
      }
    }
    if (pid === process.pid) this.context.heartbeat.hold(`inflight:${row.id}`);
    return toEntry(row);
  }

  async setWorkerPid(id: string, workerPid: number): Promise<void> {
    const op = 'ledger.setWorkerPid';
    requirePid(op, 'workerPid', workerPid);
    // Read right after the spawn, before the caller's event loop could reap the child.
    const startTime = readProcessStartTime(workerPid) ?? null;
    await this.sql.exec(
      'UPDATE inflight SET worker_pid = ?, worker_start_time = ? WHERE id = ?',
      [workerPid, startTime, id],
      {
        idempotent: true,
      },
    );
  }

  async release(id: string): Promise<boolean> {
    const result = await this.sql.exec('DELETE FROM inflight WHERE id = ?', [id], { idempotent: true });
    this.context.heartbeat.drop(`inflight:${id}`);
    return result.changes > 0;
  }

  async list(filter: { readonly poolId?: string } = {}): Promise<InflightEntry[]> {
    const { alive } = await this.judgeAll();
    const rows = filter.poolId === undefined ? alive : alive.filter((row) => row.pool === filter.poolId);
    return rows.map(toEntry);
  }

  async reap(): Promise<number> {
    return (await this.judgeAll()).removed;
  }

  async renew(): Promise<number> {
    const result = await this.sql.exec(
      'UPDATE inflight SET heartbeat_at = ? WHERE host = ? AND pid = ?',
      [this.context.rules.now(), this.context.rules.hostId, process.pid],
      { idempotent: true },
    );
    return result.changes;
  }

  /** Reads every entry, removes the dead and stale ones, returns the rest. */
  private async judgeAll(): Promise<{ alive: InflightRow[]; removed: number }> {
    const rows = await this.sql.query<InflightRow>(SELECT_ALL);
    const rules = this.context.rules;
    const now = rules.now();
    const verdicts = new Map<string, boolean>();
    const dead: InflightRow[] = [];
    const stale: InflightRow[] = [];
    for (const row of rows) {
      const verdict = judgeHolder(
        rules,
        {
          host: row.host,
          pid: row.pid,
          pidStartTime: row.pid_start_time,
          heartbeatAt: row.heartbeat_at,
          since: row.started_at,
        },
        now,
        verdicts,
      );
      if (verdict === 'dead') dead.push(row);
      else if (verdict === 'stale') stale.push(row);
    }
    if (dead.length === 0 && stale.length === 0) return { alive: rows, removed: 0 };
    if (this.context.readOnly) {
      // A read-only store cannot reap: the entries of dead dispatchers and silent hosts are left out instead.
      const out = new Set([...dead, ...stale].map((row) => row.id));
      return { alive: rows.filter((row) => !out.has(row.id)), removed: 0 };
    }
    const gone = new Set<string>();
    for (const row of dead) {
      await this.sql.exec('DELETE FROM inflight WHERE id = ?', [row.id], { idempotent: true });
      gone.add(row.id);
    }
    const cutoff = now - rules.ttlMs;
    for (const row of stale) {
      const result = await this.sql.exec(
        'DELETE FROM inflight WHERE id = ? AND COALESCE(heartbeat_at, started_at) < ?',
        [row.id, cutoff],
        { idempotent: true },
      );
      // No change: renewed since it was read (it stays), or another process reaped it first.
      if (result.changes > 0) gone.add(row.id);
    }
    // This host's dispatcher died without ending its worker (kill -9): end the orphaned group, only
    // when its leader is provably the recorded worker. Another host's workers are never signalled.
    for (const row of dead) {
      if (row.worker_pid !== null && row.worker_start_time !== null) {
        endOrphanGroup(row.worker_pid, row.worker_start_time, this.context.orphanGraceMs);
      }
    }
    return { alive: rows.filter((row) => !gone.has(row.id)), removed: gone.size };
  }
}
