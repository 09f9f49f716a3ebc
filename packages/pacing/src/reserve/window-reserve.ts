import { BURST_BLOCK_PCT, MAX_RESERVE_PCT } from '../constants';
import type { PoolSnapshot, WindowKind, WindowReserves } from '../types';

/** The reserve a pool keeps on one window, in points: 0 when it keeps none. */
export function reserveOf(pool: Pick<PoolSnapshot, 'reserves'>, kind: WindowKind): number {
  return pool.reserves?.[kind] ?? 0;
}

/**
 * Where a window with reserve `reservePct` counts as spent: `100 − reserve` percent used (100
 * without a reserve). A reading at or above it keeps the pool out until the window resets.
 */
export function spentAtPct(reservePct: number): number {
  return BURST_BLOCK_PCT - reservePct;
}

/**
 * The used share of a window read against its usable part, when the person keeps `reservePct`
 * points of it:
 *
 *     usable used% = used% × 100 / (100 − reserve)
 *
 * so 100 means the usable part is spent. Without a reserve it is `usedPct` unchanged. Surplus,
 * urgency and the pacing forecast keep their meaning against the reduced window: a weekly pool
 * 50% through its week with 34% used and a 15% reserve has used 40% of its usable 85 points, so its
 * surplus is 50 − 40 = +10 (not +16); with 85% used it is at 100, inside its reserve, and left out.
 * Spend rates (points of the window per worker-minute) scale by the same factor.
 */
export function usableUsedPct(usedPct: number, reservePct: number): number {
  return reservePct === 0 ? usedPct : (usedPct * 100) / (100 - reservePct);
}

/** The factor {@link usableUsedPct} applies: `100 / (100 − reserve)` (1 without a reserve). */
export function usableScale(reservePct: number): number {
  return reservePct === 0 ? 1 : 100 / (100 - reservePct);
}

/**
 * A reserve is valid from 0 to {@link MAX_RESERVE_PCT} (90) points, whole or with one decimal
 * (`15`, `12.5`): a finer share means nothing against meters that report whole percents.
 */
export function isValidReservePct(value: unknown): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (value < 0 || value > MAX_RESERVE_PCT) return false;
  const tenths = value * 10;
  return Math.abs(tenths - Math.round(tenths)) < 1e-9;
}

/** What a valid reserve is, for error messages. */
export const RESERVE_PCT_EXPECTED = `a share from 0 to ${MAX_RESERVE_PCT}, whole or with one decimal (e.g. 15 or 12.5)`;

/** The reserves that keep something (a 0 entry removed), in window order; `{}` when none. */
export function activeReserves(reserves: WindowReserves | undefined): WindowReserves {
  const active: { -readonly [K in WindowKind]?: number } = {};
  for (const kind of ['five_hour', 'weekly', 'monthly'] as const) {
    const value = reserves?.[kind];
    if (value !== undefined && value > 0) active[kind] = value;
  }
  return active;
}
