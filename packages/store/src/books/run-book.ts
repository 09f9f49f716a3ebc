import { type EffortTier, LANES, type Lane } from '@bullswarm/pacing';
import type { SqlSession, SqlValue } from '../engine/sql-session';
import { StoreInputError } from '../errors/store-input-error';
import {
  optionalString,
  RUN_OUTCOMES,
  requireBoolean,
  requireNumber,
  requireOneOf,
  requireString,
  requireTime,
} from '../sqlite/validate-input';
import type { RunLog, RunRecord } from '../store-types';
import type { AsyncRunLog } from './async-store-types';

interface RunRow {
  id: string;
  pool: string;
  tier: string;
  lane: string;
  action: string;
  started_at: number;
  ended_at: number;
  stalled: number;
  outcome: string;
  worker_minutes: number;
  model: string | null;
  failure_kind: string | null;
}

function toRecord(row: RunRow): RunRecord {
  return {
    id: row.id,
    poolId: row.pool,
    tier: row.tier as EffortTier,
    lane: row.lane as Lane,
    action: row.action,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    stalled: row.stalled === 1,
    outcome: row.outcome as RunRecord['outcome'],
    workerMinutes: row.worker_minutes,
    ...(row.model === null ? {} : { model: row.model }),
    ...(row.failure_kind === null ? {} : { failureKind: row.failure_kind }),
  };
}

const UPSERT = `INSERT INTO runs (id, pool, tier, lane, action, started_at, ended_at, stalled, outcome, worker_minutes, model, failure_kind)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET pool = excluded.pool, tier = excluded.tier, lane = excluded.lane,
    action = excluded.action, started_at = excluded.started_at, ended_at = excluded.ended_at,
    stalled = excluded.stalled, outcome = excluded.outcome, worker_minutes = excluded.worker_minutes,
    model = excluded.model, failure_kind = excluded.failure_kind`;

/**
 * The run log over the SQL layer (both engines). `append` with an id already recorded replaces
 * that run, so it is safe to re-send (after a crash, or a connection lost mid-write); `list` is
 * newest first (by `startedAt`, then by insertion: `rowid`).
 */
export class RunBook implements AsyncRunLog {
  constructor(private readonly sql: SqlSession) {}

  async append(run: RunRecord): Promise<void> {
    const op = 'runs.append';
    const values: SqlValue[] = [
      requireString(op, 'id', run.id),
      requireString(op, 'poolId', run.poolId),
      requireString(op, 'tier', run.tier),
      requireOneOf(op, 'lane', run.lane, LANES),
      requireString(op, 'action', run.action),
      requireTime(op, 'startedAt', run.startedAt),
      requireTime(op, 'endedAt', run.endedAt),
      requireBoolean(op, 'stalled', run.stalled),
      requireOneOf(op, 'outcome', run.outcome, RUN_OUTCOMES),
      requireNumber(op, 'workerMinutes', run.workerMinutes),
      optionalString(op, 'model', run.model),
      optionalString(op, 'failureKind', run.failureKind),
    ];
    await this.sql.exec(UPSERT, values, { idempotent: true });
  }

  async list(filter: Parameters<RunLog['list']>[0] = {}): Promise<RunRecord[]> {
    const op = 'runs.list';
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (filter.poolId !== undefined) {
      where.push('pool = ?');
      params.push(filter.poolId);
    }
    if (filter.tier !== undefined) {
      where.push('tier = ?');
      params.push(filter.tier);
    }
    if (filter.since !== undefined) {
      where.push('started_at >= ?');
      params.push(requireTime(op, 'since', filter.since));
    }
    let sql = `SELECT * FROM runs${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`} ORDER BY started_at DESC, rowid DESC`;
    if (filter.limit !== undefined) {
      if (!Number.isInteger(filter.limit) || filter.limit < 1) {
        throw new StoreInputError({
          operation: op,
          field: 'limit',
          expected: 'a positive integer',
          value: filter.limit,
        });
      }
      sql += ' LIMIT ?';
      params.push(filter.limit);
    }
    return (await this.sql.query<RunRow>(sql, params)).map(toRecord);
  }
}
