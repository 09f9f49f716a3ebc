import { buildPoolSnapshots, buildPoolViews, type PoolView } from '@bullswarm/dispatch/routing';
import type { WindowKind } from '@bullswarm/pacing';
import { effectiveWindow, findWindow, formatTime } from '@bullswarm/pacing/internal';
import type { DashboardSource } from './dashboard-source';

/** What `bullswarm pools --json` prints: the time and one row per pool. */
export interface PoolsJson {
  readonly now: string;
  readonly pools: readonly PoolView[];
}

/** One pool's used% over time in its pacing window, with the pace line and the forecast. */
export interface PoolHistory {
  readonly poolId: string;
  readonly poolLabel: string;
  readonly window: WindowKind;
  /** The current window: its start and reset (epoch ms); null when the meter names no reset. */
  readonly windowStart: number | null;
  readonly resetsAt: number | null;
  /** Retained readings of this window since its start (at most {@link MAX_HISTORY_POINTS}), oldest first. */
  readonly readings: readonly { readonly at: number; readonly usedPct: number }[];
  /**
   * Used% at the reset if the window keeps its average rate so far (used% × 100 / elapsed%);
   * null when unknown (no reading, no reset, or nothing elapsed yet).
   */
  readonly forecastPct: number | null;
}

/** The most readings one chart draws (older ones are thinned evenly). */
export const MAX_HISTORY_POINTS = 400;

/** `GET /api/pools`: the same rows as `bullswarm pools --json`. */
export async function poolsJson(source: DashboardSource): Promise<PoolsJson> {
  const runtime = await source.current();
  const snapshots = await buildPoolSnapshots(runtime);
  const pools = buildPoolViews(snapshots, { inflightPenaltyPct: runtime.state.config.inflightPenaltyPct });
  return { now: formatTime(snapshots.now), pools };
}

function thin<T>(rows: readonly T[], max: number): T[] {
  if (rows.length <= max) return [...rows];
  const step = rows.length / max;
  const out: T[] = [];
  for (let i = 0; i < max - 1; i += 1) out.push(rows[Math.floor(i * step)]!);
  out.push(rows[rows.length - 1]!);
  return out;
}

/** `GET /api/pools/history`: every pool's chart data (pacing window, from the meter log). */
export async function poolHistories(source: DashboardSource): Promise<{ readonly histories: PoolHistory[] }> {
  const runtime = await source.current();
  const snapshots = await buildPoolSnapshots(runtime);
  const store = await runtime.requireStore();
  const now = snapshots.now;
  const histories: PoolHistory[] = [];
  for (const pool of [...snapshots.pools].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const raw = findWindow(pool.meter, pool.pacingWindow);
    const window = raw === null ? null : effectiveWindow(raw, now);
    const resetsAt = window?.resetsAt ?? null;
    const windowStart =
      window === null || resetsAt === null ? null : resetsAt - window.windowMinutes * 60_000;
    const rows = await store.meters.listReadings(pool.id, {
      window: pool.pacingWindow,
      ...(windowStart === null ? {} : { since: windowStart }),
    });
    const readings = thin(
      rows.map((row) => ({ at: row.readAt, usedPct: row.usedPct })),
      MAX_HISTORY_POINTS,
    );
    let forecastPct: number | null = null;
    if (window !== null && windowStart !== null && resetsAt !== null && resetsAt > windowStart) {
      const elapsed = (now - windowStart) / (resetsAt - windowStart);
      if (elapsed > 0)
        forecastPct = Math.round(Math.min(window.usedPct / Math.min(elapsed, 1), 999) * 10) / 10;
    }
    histories.push({
      poolId: pool.id,
      poolLabel: pool.label ?? pool.id,
      window: pool.pacingWindow,
      windowStart,
      resetsAt,
      readings,
      forecastPct,
    });
  }
  return { histories };
}
