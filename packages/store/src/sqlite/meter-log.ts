import { type MeterWindow, WINDOW_KINDS, type WindowKind } from '@bullswarm/pacing';
import type Database from 'better-sqlite3';
import type { MeterCacheEntry, MeterLog, MeterReadingRow } from '../store-types';
import type { BusyRunner } from './busy-retry';
import {
  optionalString,
  optionalTime,
  requireBoolean,
  requireNumber,
  requireOneOf,
  requireString,
  requireTime,
  windowsToJson,
} from './validate-input';

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

/**
 * Retained meter readings, the per-pool meter cache and manual readings, on SQLite.
 *
 * `forceReread` on a pool with no cache row is a no-op (with no cached reading the next read goes
 * to the source anyway); `setCache` replaces the whole entry, clearing the force flag unless the
 * entry sets it.
 */
export class SqliteMeterLog implements MeterLog {
  private readonly insertReading: Database.Statement;
  private readonly prune: Database.Statement;
  private readonly readingsAll: Database.Statement;
  private readonly readingsWindow: Database.Statement;
  private readonly selectCache: Database.Statement;
  private readonly upsertCache: Database.Statement;
  private readonly markReread: Database.Statement;
  private readonly selectManual: Database.Statement;
  private readonly upsertManual: Database.Statement;
  private readonly deleteManual: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly runner: BusyRunner,
  ) {
    this.insertReading = db.prepare(
      `INSERT INTO meter_readings (pool, window_kind, used_pct, resets_at, window_minutes, read_at, source)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.prune = db.prepare('DELETE FROM meter_readings WHERE read_at < ?');
    this.readingsAll = db.prepare(
      'SELECT * FROM meter_readings WHERE pool = ? AND read_at >= ? ORDER BY read_at, rowid',
    );
    this.readingsWindow = db.prepare(
      'SELECT * FROM meter_readings WHERE pool = ? AND window_kind = ? AND read_at >= ? ORDER BY read_at, rowid',
    );
    this.selectCache = db.prepare('SELECT * FROM meter_cache WHERE pool = ?');
    this.upsertCache = db.prepare(
      `INSERT INTO meter_cache (pool, windows, read_at, source, rate_limited, meter_error, meter_error_detail, meter_hold_until, failures, force_reread)
       VALUES (@pool, @windows, @read_at, @source, @rate_limited, @meter_error, @meter_error_detail, @meter_hold_until, @failures, @force_reread)
       ON CONFLICT (pool) DO UPDATE SET windows = excluded.windows, read_at = excluded.read_at, source = excluded.source,
         rate_limited = excluded.rate_limited, meter_error = excluded.meter_error, meter_error_detail = excluded.meter_error_detail,
         meter_hold_until = excluded.meter_hold_until, failures = excluded.failures, force_reread = excluded.force_reread`,
    );
    this.markReread = db.prepare('UPDATE meter_cache SET force_reread = 1 WHERE pool = ?');
    this.selectManual = db.prepare('SELECT * FROM meter_manual WHERE pool = ?');
    this.upsertManual = db.prepare(
      `INSERT INTO meter_manual (pool, windows, set_at) VALUES (?, ?, ?)
       ON CONFLICT (pool) DO UPDATE SET windows = excluded.windows, set_at = excluded.set_at`,
    );
    this.deleteManual = db.prepare('DELETE FROM meter_manual WHERE pool = ?');
  }

  appendReadings(rows: readonly MeterReadingRow[]): void {
    const op = 'meters.appendReadings';
    const values = rows.map((row, index) => {
      const field = (name: string) => `rows[${index}].${name}`;
      return [
        requireString(op, field('poolId'), row.poolId),
        requireOneOf(op, field('window'), row.window, WINDOW_KINDS),
        requireNumber(op, field('usedPct'), row.usedPct),
        optionalTime(op, field('resetsAt'), row.resetsAt),
        requireNumber(op, field('windowMinutes'), row.windowMinutes),
        requireTime(op, field('readAt'), row.readAt),
        requireString(op, field('source'), row.source),
      ] as const;
    });
    if (values.length === 0) return;
    // Observations: on a read-only store they are not kept (the command still shows them).
    this.runner.writeIfWritable(
      op,
      () => {
        for (const value of values) this.insertReading.run(...value);
      },
      undefined,
    );
  }

  listReadings(
    poolId: string,
    filter: { readonly window?: WindowKind; readonly since?: number } = {},
  ): MeterReadingRow[] {
    const op = 'meters.listReadings';
    const since =
      filter.since === undefined ? Number.MIN_SAFE_INTEGER : requireTime(op, 'since', filter.since);
    const rows = this.runner.read(op, () =>
      filter.window === undefined
        ? this.readingsAll.all(poolId, since)
        : this.readingsWindow.all(poolId, requireOneOf(op, 'window', filter.window, WINDOW_KINDS), since),
    ) as ReadingRow[];
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

  pruneReadings(before: number): number {
    const op = 'meters.pruneReadings';
    const bound = requireTime(op, 'before', before);
    return this.runner.writeIfWritable(op, () => this.prune.run(bound).changes, 0);
  }

  getCache(poolId: string): MeterCacheEntry | undefined {
    const row = this.runner.read('meters.getCache', () => this.selectCache.get(poolId)) as
      | CacheRow
      | undefined;
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

  setCache(entry: MeterCacheEntry): void {
    const op = 'meters.setCache';
    const failures = requireNumber(op, 'failures', entry.failures);
    const row: CacheRow = {
      pool: requireString(op, 'poolId', entry.poolId),
      windows: windowsToJson(op, entry.windows),
      read_at: requireTime(op, 'readAt', entry.readAt),
      source: requireString(op, 'source', entry.source),
      rate_limited:
        entry.rateLimited === undefined ? null : requireBoolean(op, 'rateLimited', entry.rateLimited) ? 1 : 0,
      meter_error: optionalString(op, 'meterError', entry.meterError),
      meter_error_detail: optionalString(op, 'meterErrorDetail', entry.meterErrorDetail),
      meter_hold_until: optionalTime(op, 'meterHoldUntil', entry.meterHoldUntil),
      failures: Math.trunc(failures),
      force_reread: entry.forceReread === true ? 1 : 0,
    };
    this.runner.writeIfWritable(op, () => this.upsertCache.run(row), undefined);
  }

  forceReread(poolId: string): void {
    this.runner.write('meters.forceReread', () => this.markReread.run(poolId));
  }

  getManual(
    poolId: string,
  ): { readonly windows: readonly MeterWindow[]; readonly setAt: number } | undefined {
    const row = this.runner.read('meters.getManual', () => this.selectManual.get(poolId)) as
      | { windows: string; set_at: number }
      | undefined;
    return row === undefined
      ? undefined
      : { windows: JSON.parse(row.windows) as MeterWindow[], setAt: row.set_at };
  }

  setManual(poolId: string, windows: readonly MeterWindow[] | undefined, setAt: number): void {
    const op = 'meters.setManual';
    requireString(op, 'poolId', poolId);
    if (windows === undefined) {
      this.runner.write(op, () => this.deleteManual.run(poolId));
      return;
    }
    const json = windowsToJson(op, windows);
    const at = requireTime(op, 'setAt', setAt);
    this.runner.write(op, () => this.upsertManual.run(poolId, json, at));
  }
}
