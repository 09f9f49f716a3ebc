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

/** A row as the cached query reads it: with its rowid, the insertion order. */
type RankedRunRow = RunRow & { readonly rank: number };

/** The newest runs of one pool, as last read (see {@link RunBook.list}). */
interface CachedRuns {
  readonly dataVersion: number;
  readonly since: number;
  readonly limit: number;
  /** Newest first, at most `limit`. */
  readonly rows: readonly RankedRunRow[];
  /** The highest rowid of the pool's runs seen (the next read asks only for rows after it). */
  readonly maxRank: number;
}

/** Newest first: by `started_at`, then by insertion. */
function newestFirst(a: RankedRunRow, b: RankedRunRow): number {
  return b.started_at - a.started_at || b.rank - a.rank;
}

/**
 * The run log over the SQL layer (both engines). `append` with an id already recorded replaces
 * that run, so it is safe to re-send (after a crash, or a connection lost mid-write); `list` is
 * newest first (by `startedAt`, then by insertion: `rowid`).
 */
export class RunBook implements AsyncRunLog {
  /**
   * SQLite: each pool's newest runs as `list({ poolId, since, limit })` last returned them (what a
   * dispatch's snapshot asks for every pool, every time). A later call with the same pool and
   * limit and a `since` no earlier reads only the rows inserted after them (by rowid) and merges,
   * as long as no other connection has written the database since (`PRAGMA data_version`);
   * anything else reads again. Runs are only ever inserted or re-sent unchanged, never deleted;
   * a re-send of a run in the cache drops that pool's entry all the same.
   */
  private readonly cache = new Map<string, CachedRuns>();

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
    const cached = this.cache.get(run.poolId);
    if (cached?.rows.some((row) => row.id === run.id)) this.cache.delete(run.poolId);
  }

  async list(filter: Parameters<RunLog['list']>[0] = {}): Promise<RunRecord[]> {
    const op = 'runs.list';
    if (
      this.sql.dialect.engine === 'sqlite' &&
      filter.poolId !== undefined &&
      filter.tier === undefined &&
      filter.since !== undefined &&
      filter.limit !== undefined &&
      Number.isInteger(filter.limit) &&
      filter.limit >= 1
    ) {
      const rows = await this.newestOfPool(
        filter.poolId,
        requireTime(op, 'since', filter.since),
        filter.limit,
      );
      return rows.map(toRecord);
    }
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
  /** `list({ poolId, since, limit })` on SQLite, through {@link RunBook.cache}. */
  private async newestOfPool(poolId: string, since: number, limit: number): Promise<readonly RankedRunRow[]> {
    const dataVersion =
      (await this.sql.get<{ data_version: number }>('PRAGMA data_version'))?.data_version ?? -1;
    // Read before the rows: a run appended meanwhile (by this process) is then read again next
    // time, never skipped; the merge drops the duplicate.
    const top = await this.sql.get<{ rank: number | null }>('SELECT max(rowid) AS rank FROM runs');
    const maxRank = top?.rank ?? 0;
    const cached = this.cache.get(poolId);
    let rows: RankedRunRow[];
    if (cached && cached.dataVersion === dataVersion && cached.limit === limit && since >= cached.since) {
      const added = await this.sql.query<RankedRunRow>(
        // `+pool`, `+started_at`: no index on them, so SQLite walks the rowids after the last one
        // seen (a handful) instead of every run of the pool in the window.
        'SELECT rowid AS rank, * FROM runs WHERE rowid > ? AND +pool = ? AND +started_at >= ?',
        [cached.maxRank, poolId, since],
      );
      const ids = new Set(added.map((row) => row.id));
      rows = [...cached.rows.filter((row) => row.started_at >= since && !ids.has(row.id)), ...added]
        .sort(newestFirst)
        .slice(0, limit);
    } else {
      rows = await this.sql.query<RankedRunRow>(
        'SELECT rowid AS rank, * FROM runs WHERE pool = ? AND started_at >= ? ORDER BY started_at DESC, rowid DESC LIMIT ?',
        [poolId, since, limit],
      );
    }
    this.cache.set(poolId, { dataVersion, since, limit, rows, maxRank });
    return rows;
  }
}
