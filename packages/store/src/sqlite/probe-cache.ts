import type Database from 'better-sqlite3';
import type { ProbeCache, ProbeResult } from '../store-types';
import type { BusyRunner } from './busy-retry';
import { optionalString, requireBoolean, requireString, requireTime } from './validate-input';

/**
 * Free-model probe results on SQLite, one row per (pool, model). The store keeps the latest result
 * with its `checkedAt`; whether it is still fresh (15 minutes) is the caller's decision.
 */
export class SqliteProbeCache implements ProbeCache {
  private readonly select: Database.Statement;
  private readonly upsert: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly runner: BusyRunner,
  ) {
    this.select = db.prepare('SELECT * FROM probes WHERE pool = ? AND model = ?');
    this.upsert = db.prepare(
      `INSERT INTO probes (pool, model, ok, reason, checked_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (pool, model) DO UPDATE SET ok = excluded.ok, reason = excluded.reason, checked_at = excluded.checked_at`,
    );
  }

  get(poolId: string, model: string): ProbeResult | undefined {
    const row = this.runner.read('probes.get', () => this.select.get(poolId, model)) as
      | { pool: string; model: string; ok: number; reason: string | null; checked_at: number }
      | undefined;
    if (row === undefined) return undefined;
    return {
      poolId: row.pool,
      model: row.model,
      ok: row.ok === 1,
      ...(row.reason === null ? {} : { reason: row.reason }),
      checkedAt: row.checked_at,
    };
  }

  set(result: ProbeResult): void {
    const op = 'probes.set';
    const values = [
      requireString(op, 'poolId', result.poolId),
      requireString(op, 'model', result.model),
      requireBoolean(op, 'ok', result.ok) ? 1 : 0,
      optionalString(op, 'reason', result.reason),
      requireTime(op, 'checkedAt', result.checkedAt),
    ] as const;
    this.runner.writeIfWritable(op, () => this.upsert.run(...values), undefined);
  }
}
