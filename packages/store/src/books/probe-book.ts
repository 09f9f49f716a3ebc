import type { SqlSession } from '../engine/sql-session';
import { optionalString, requireBoolean, requireString, requireTime } from '../sqlite/validate-input';
import type { ProbeResult } from '../store-types';
import type { AsyncProbeCache } from './async-store-types';

/** Free-model probe results over the SQL layer: the latest per (pool, model); freshness is the caller's. */
export class ProbeBook implements AsyncProbeCache {
  /** @param readOnly the store cannot be written: results are not kept (a cache). */
  constructor(
    private readonly sql: SqlSession,
    private readonly readOnly = false,
  ) {}

  async get(poolId: string, model: string): Promise<ProbeResult | undefined> {
    const row = await this.sql.get<{
      pool: string;
      model: string;
      ok: number;
      reason: string | null;
      checked_at: number;
    }>('SELECT * FROM probes WHERE pool = ? AND model = ?', [poolId, model]);
    if (row === undefined) return undefined;
    return {
      poolId: row.pool,
      model: row.model,
      ok: row.ok === 1,
      ...(row.reason === null ? {} : { reason: row.reason }),
      checkedAt: row.checked_at,
    };
  }

  async set(result: ProbeResult): Promise<void> {
    const op = 'probes.set';
    const values = [
      requireString(op, 'poolId', result.poolId),
      requireString(op, 'model', result.model),
      requireBoolean(op, 'ok', result.ok),
      optionalString(op, 'reason', result.reason),
      requireTime(op, 'checkedAt', result.checkedAt),
    ];
    if (this.readOnly) return;
    await this.sql.exec(
      `INSERT INTO probes (pool, model, ok, reason, checked_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (pool, model) DO UPDATE SET ok = excluded.ok, reason = excluded.reason, checked_at = excluded.checked_at`,
      values,
      { idempotent: true },
    );
  }
}
