import type { CandidateRow } from '../types';
import type { UnorderedRow } from './candidate-row';

/**
 * Orders the candidates of one decision; the first row is the pick.
 *
 * The spec lists six steps, where steps 4 (free models) and 5 (expiring-soon urgency) are
 * *filters* ("only free pools are selectable while any is free", "only urgent pools are selectable
 * while any can spend") and steps 2 and 3 are *ordering keys*. The spec also places free below the
 * forecast and last-mile keys: "a free pool that is near its 5-hour line still yields to a healthy
 * pool when the soft penalty applies". Applied literally as a filter over all candidates, free-first
 * would override that penalty, so the filters act INSIDE the ordering keys: rows are sorted
 * lexicographically by
 *
 * 1. `draining` (false first; for a workflow step draining pools were already removed unless pinned),
 * 2. `forecastOverLimit` (false first),
 * 3. `nearFiveHourPenalty` (false first),
 * 4. `free` (true first) — "only free selectable while any is free", within the top class,
 * 5. `urgent` (true first) — "only urgent selectable while any can spend", within that class,
 * 6. `assigned` (an explicit tier assignment names the pool; true first),
 * 7. score, descending: `urgency` for urgent pools, `effectiveSurplus` otherwise,
 * 8. pool id, ascending by UTF-16 code unit (never locale-dependent), so the result does not
 *    depend on input order and another tool makes the same pick.
 *
 * A row is `selectable` when it shares keys 1–5 with the first row: it survived the free and
 * urgency filters inside the top forecast/last-mile class.
 *
 * `nearFiveHourPenalty` is set here: a row at or above the near-limit line is penalised when ANOTHER
 * candidate is below the line and behind pace (`pace > 0`; an unknown pace counts as 0).
 */
export function orderCandidates(rows: readonly UnorderedRow[]): CandidateRow[] {
  let healthyBehindPace = 0;
  for (const row of rows) if (!row.nearFiveHourLimit && (row.pace ?? 0) > 0) healthyBehindPace++;
  // A near-limit row never counts itself (it is not "healthy"), so any count > 0 is another pool.
  const penalised: CandidateRow[] = rows.map((row) => ({
    ...row,
    nearFiveHourPenalty: row.nearFiveHourLimit && healthyBehindPace > 0,
    selectable: false,
  }));
  penalised.sort(compareCandidates);
  const first = penalised[0];
  if (first === undefined) return penalised;
  return penalised.map((row) => (sameClass(row, first) ? { ...row, selectable: true } : row));
}

/** The comparator of {@link orderCandidates}: negative when `a` is preferred. */
export function compareCandidates(a: CandidateRow, b: CandidateRow): number {
  if (a.draining !== b.draining) return a.draining ? 1 : -1;
  if (a.forecastOverLimit !== b.forecastOverLimit) return a.forecastOverLimit ? 1 : -1;
  if (a.nearFiveHourPenalty !== b.nearFiveHourPenalty) return a.nearFiveHourPenalty ? 1 : -1;
  if (a.free !== b.free) return a.free ? -1 : 1;
  if (a.urgent !== b.urgent) return a.urgent ? -1 : 1;
  if (a.assigned !== b.assigned) return a.assigned ? -1 : 1;
  const scoreA = rankScore(a);
  const scoreB = rankScore(b);
  if (scoreA !== scoreB) return scoreA > scoreB ? -1 : 1;
  return a.poolId < b.poolId ? -1 : a.poolId > b.poolId ? 1 : 0;
}

/** Key 7: urgency for an urgent pool, effective surplus otherwise. */
export function rankScore(row: Pick<CandidateRow, 'urgent' | 'urgency' | 'effectiveSurplus'>): number {
  return row.urgent && row.urgency !== null ? row.urgency : row.effectiveSurplus;
}

/** Keys 1–5 equal: the two rows are in the same forecast/last-mile/free/urgency class. */
export function sameClass(a: CandidateRow, b: CandidateRow): boolean {
  return (
    a.draining === b.draining &&
    a.forecastOverLimit === b.forecastOverLimit &&
    a.nearFiveHourPenalty === b.nearFiveHourPenalty &&
    a.free === b.free &&
    a.urgent === b.urgent
  );
}
