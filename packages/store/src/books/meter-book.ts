import { type MeterWindow, WINDOW_KINDS, type WindowKind } from '@bullswarm/pacing';
import type { SqlSession, SqlValue } from '../engine/sql-session';
import {
  optionalString,
  optionalTime,
  requireBoolean,
  requireNumber,
  requireOneOf,
  requireString,
  requireTime,
  windowsToJson,
} from '../sqlite/validate-input';
import type { MeterCacheEntry, MeterReadingRow } from '../store-types';
import type { AsyncMeterLog } from './async-store-types';

interface ReadingRow {
  pool: string;
  window_kind: string;
  used_pct: number;
  resets_at: number | null;
  window_minutes: number;
  read_at: number;
  source: string;
}

interface CacheRow {
  pool: string;
  windows: string;
  read_at: number;
  source: string;
  rate_limited: number | null;
  meter_error: string | null;
  meter_error_detail: string | null;
  meter_hold_until: number | null;
  failures: number;
  force_reread: number;
}

const UPSERT_CACHE = `INSERT INTO meter_cache (pool, windows, read_at, source, rate_limited, meter_error, meter_error_detail, meter_hold_until, failures, force_reread)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (pool) DO UPDATE SET windows = excluded.windows, read_at = excluded.read_at, source = excluded.source,
    rate_limited = excluded.rate_limited, meter_error = excluded.meter_error, meter_error_detail = excluded.meter_error_detail,
    meter_hold_until = excluded.meter_hold_until, failures = excluded.failures, force_reread = excluded.force_reread`;

/**
 * Retained meter readings, the per-pool meter cache and manual readings over the SQL layer (both
 * engines); the same rules as the synchronous `SqliteMeterLog`. Readings of one call are appended
 * in one transaction (all or none).
 */
export class MeterBook implements AsyncMeterLog {
  /** @param readOnly the store cannot be written: readings, the cache and pruning are not kept (reads work). */
  constructor(
    private readonly sql: SqlSession,
    private readonly readOnly = false,
  ) {}

  async appendReadings(rows: readonly MeterReadingRow[]): Promise<void> {
    const op = 'meters.appendReadings';
    const values = rows.map((row, index): SqlValue[] => {
      const field = (name: string) => `rows[${index}].${name}`;
      return [
        requireString(op, field('poolId'), row.poolId),
        requireOneOf(op, field('window'), row.window, WINDOW_KINDS),
        requireNumber(op, field('usedPct'), row.usedPct),
        optionalTime(op, field('resetsAt'), row.resetsAt),
        requireNumber(op, field('windowMinutes'), row.windowMinutes),
        requireTime(op, field('readAt'), row.readAt),
        requireString(op, field('source'), row.source),
      ];
    });
    // Observations: on a read-only store they are not kept (the command still shows them).
    if (values.length === 0 || this.readOnly) return;
    await this.sql.transaction(
      async (tx) => {
        for (const value of values) {
          await tx.exec(
            `INSERT INTO meter_readings (pool, window_kind, used_pct, resets_at, window_minutes, read_at, source)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
            value,
          );
        }
      },
      { operation: op },
    );
  }

  async listReadings(
    poolId: string,
    filter: { readonly window?: WindowKind; readonly since?: number } = {},
  ): Promise<MeterReadingRow[]> {
    const op = 'meters.listReadings';
    const since =
      filter.since === undefined ? Number.MIN_SAFE_INTEGER : requireTime(op, 'since', filter.since);
    const rows =
      filter.window === undefined
        ? await this.sql.query<ReadingRow>(
            'SELECT * FROM meter_readings WHERE pool = ? AND read_at >= ? ORDER BY read_at, rowid',
            [poolId, since],
          )
        : await this.sql.query<ReadingRow>(
            'SELECT * FROM meter_readings WHERE pool = ? AND window_kind = ? AND read_at >= ? ORDER BY read_at, rowid',
            [poolId, requireOneOf(op, 'window', filter.window, WINDOW_KINDS), since],
          );
    return rows.map((row) => ({
      poolId: row.pool,
      window: row.window_kind as WindowKind,
      usedPct: row.used_pct,
      ...(row.resets_at === null ? {} : { resetsAt: row.resets_at }),
      windowMinutes: row.window_minutes,
      readAt: row.read_at,
      source: row.source,
    }));
  }

  async pruneReadings(before: number): Promise<number> {
    const bound = requireTime('meters.pruneReadings', 'before', before);
    if (this.readOnly) return 0;
    return (
      await this.sql.exec('DELETE FROM meter_readings WHERE read_at < ?', [bound], { idempotent: true })
    ).changes;
  }

  async getCache(poolId: string): Promise<MeterCacheEntry | undefined> {
    const row = await this.sql.get<CacheRow>('SELECT * FROM meter_cache WHERE pool = ?', [poolId]);
    if (row === undefined) return undefined;
    return {
      poolId: row.pool,
      windows: JSON.parse(row.windows) as MeterWindow[],
      readAt: row.read_at,
      source: row.source,
      ...(row.rate_limited === null ? {} : { rateLimited: row.rate_limited === 1 }),
      ...(row.meter_error === null ? {} : { meterError: row.meter_error }),
      ...(row.meter_error_detail == null ? {} : { meterErrorDetail: row.meter_error_detail }),
      ...(row.meter_hold_until === null ? {} : { meterHoldUntil: row.meter_hold_until }),
      failures: row.failures,
      ...(row.force_reread === 1 ? { forceReread: true } : {}),
    };
  }

  async setCache(entry: MeterCacheEntry): Promise<void> {
    const op = 'meters.setCache';
    const failures = requireNumber(op, 'failures', entry.failures);
    if (this.readOnly) return; // a cache: not kept on a read-only store
    await this.sql.exec(
      UPSERT_CACHE,
      [
        requireString(op, 'poolId', entry.poolId),
        windowsToJson(op, entry.windows),
        requireTime(op, 'readAt', entry.readAt),
        requireString(op, 'source', entry.source),
        entry.rateLimited === undefined ? null : requireBoolean(op, 'rateLimited', entry.rateLimited),
        optionalString(op, 'meterError', entry.meterError),
        optionalString(op, 'meterErrorDetail', entry.meterErrorDetail),
        optionalTime(op, 'meterHoldUntil', entry.meterHoldUntil),
        Math.trunc(failures),
        entry.forceReread === true,
      ],
      { idempotent: true },
    );
  }

  async forceReread(poolId: string): Promise<void> {
    await this.sql.exec('UPDATE meter_cache SET force_reread = 1 WHERE pool = ?', [poolId], {
      idempotent: true,
    });
  }

  async getManual(
    poolId: string,
  ): Promise<{ readonly windows: readonly MeterWindow[]; readonly setAt: number } | undefined> {
    const row = await this.sql.get<{ windows: string; set_at: number }>(
      'SELECT * FROM meter_manual WHERE pool = ?',
      [poolId],
    );
    return row === undefined
      ? undefined
      : { windows: JSON.parse(row.windows) as MeterWindow[], setAt: row.set_at };
  }

  async setManual(poolId: string, windows: readonly MeterWindow[] | undefined, setAt: number): Promise<void> {
    const op = 'meters.setManual';
    requireString(op, 'poolId', poolId);
    if (windows === undefined) {
      await this.sql.exec('DELETE FROM meter_manual WHERE pool = ?', [poolId], { idempotent: true });
      return;
    }
    const json = windowsToJson(op, windows);
    const at = requireTime(op, 'setAt', setAt);
    await this.sql.exec(
      `INSERT INTO meter_manual (pool, windows, set_at) VALUES (?, ?, ?)
       ON CONFLICT (pool) DO UPDATE SET windows = excluded.windows, set_at = excluded.set_at`,
      [poolId, json, at],
      { idempotent: true },
    );
  }
}
