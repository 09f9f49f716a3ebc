import { type EffortTier, LANES, type Lane } from '@bullswarm/pacing';
import type Database from 'better-sqlite3';
import { StoreInputError } from '../errors/store-input-error';
import type { RunLog, RunRecord } from '../store-types';
import type { BusyRunner } from './busy-retry';
import {
  optionalString,
  RUN_OUTCOMES,
  requireBoolean,
  requireNumber,
  requireOneOf,
  requireString,
  requireTime,
} from './validate-input';

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

/** Filter of {@link SqliteRunLog.list}. */
export type RunFilter = Parameters<RunLog['list']>[0];

/**
 * The run log on SQLite. `append` with an id already recorded replaces that run (so a caller
 * retrying after a crash cannot duplicate it). `list` returns newest first (by `startedAt`, then
 * by insertion), served by the `(pool, tier, started_at)` index and its siblings.
 */
export class SqliteRunLog implements RunLog {
  private readonly upsert: Database.Statement;
  private readonly queries = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly runner: BusyRunner,
  ) {
    this.upsert = db.prepare(
      `INSERT INTO runs (id, pool, tier, lane, action, started_at, ended_at, stalled, outcome, worker_minutes, model, failure_kind)
       VALUES (@id, @pool, @tier, @lane, @action, @started_at, @ended_at, @stalled, @outcome, @worker_minutes, @model, @failure_kind)
       ON CONFLICT (id) DO UPDATE SET pool = excluded.pool, tier = excluded.tier, lane = excluded.lane,
         action = excluded.action, started_at = excluded.started_at, ended_at = excluded.ended_at,
         stalled = excluded.stalled, outcome = excluded.outcome, worker_minutes = excluded.worker_minutes,
         model = excluded.model, failure_kind = excluded.failure_kind`,
    );
  }

  append(run: RunRecord): void {
    const op = 'runs.append';
    const row: RunRow = {
      id: requireString(op, 'id', run.id),
      pool: requireString(op, 'poolId', run.poolId),
      tier: requireString(op, 'tier', run.tier),
      lane: requireOneOf(op, 'lane', run.lane, LANES),
      action: requireString(op, 'action', run.action),
      started_at: requireTime(op, 'startedAt', run.startedAt),
      ended_at: requireTime(op, 'endedAt', run.endedAt),
      stalled: requireBoolean(op, 'stalled', run.stalled) ? 1 : 0,
      outcome: requireOneOf(op, 'outcome', run.outcome, RUN_OUTCOMES),
      worker_minutes: requireNumber(op, 'workerMinutes', run.workerMinutes),
      model: optionalString(op, 'model', run.model),
      failure_kind: optionalString(op, 'failureKind', run.failureKind),
    };
    this.runner.write(op, () => this.upsert.run(row));
  }

  list(filter: RunFilter = {}): RunRecord[] {
    const op = 'runs.list';
    const where: string[] = [];
    const params: (string | number)[] = [];
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
    let statement = this.queries.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.queries.set(sql, statement);
    }
    const prepared = statement;
    return (this.runner.read(op, () => prepared.all(...params)) as RunRow[]).map(toRecord);
  }
}
