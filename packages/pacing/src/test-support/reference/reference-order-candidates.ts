// The routing decision as it was before the single-scan pick (issue 14), kept verbatim as the
// oracle of src/route/choose-route.reference.test.ts: every eligible pool's row built eagerly and
// every row sorted with the comparator. Test-only (excluded from the build); do not optimise it.
import type { CandidateRow } from '../../types';

/**
 * Orders the candidates of one decision; the first row is the pick. The rows are the decision's
 * own (fresh from `buildCandidateRow`): their `nearFiveHourPenalty` and `selectable` are set in
 * place, which keeps a 10,000-pool decision from copying every row.
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
 * candidate is below the line and behind pace (`pace > 0`; an unknown pace counts as 0) and would itself
 * be ordered ahead of a penalised row: a candidate that is draining or forecast over 100% of its 5-hour
 * window is ordered last whatever the penalty (keys 1 and 2), so it never triggers one — otherwise a
 * pool ranked last would hand the task to a third pool that is not behind pace at all (a choice: the
 * spec orders the near-limit pool "after it", the pool behind pace, which cannot hold for one ranked last).
 *
 * Rows are fed one at a time ({@link CandidateOrder.add}), so `chooseRoute` computes each row's
 * sort key while the row is fresh in cache. Keys 1–6 are packed into one integer and the score
 * computed once per row, so the sort compares three small fields instead of re-reading every flag.
 */
export class CandidateOrder {
  private readonly entries: SortEntry[] = [];
  private readonly nearLimit: SortEntry[] = [];
  private healthyBehindPace = 0;

  /** After {@link finish}: rows forecast over 100% of the 5-hour window, in preference order. */
  readonly forecastOver: CandidateRow[] = [];
  /** After {@link finish}: draining rows, in preference order. */
  readonly draining: CandidateRow[] = [];
  /** After {@link finish}: rows whose model for the tier is metered (not free), in preference order. */
  readonly metered: CandidateRow[] = [];
  /** After {@link finish}: how many leading rows share keys 1–6 with the first (the score decided among them). */
  firstClassCount = 0;

  /** Adds a row fresh from `buildCandidateRow` (its penalty and selectable flags are still false). */
  add(candidate: CandidateRow): void {
    const row = candidate as MutableRow;
    row.nearFiveHourPenalty = false;
    row.selectable = false;
    const entry: SortEntry = { classKey: classKey(row), score: rankScore(row), poolId: row.poolId, row };
    this.entries.push(entry);
    if (row.nearFiveHourLimit) this.nearLimit.push(entry);
    else if ((row.pace ?? 0) > 0 && !row.forecastOverLimit && !row.draining) this.healthyBehindPace++;
  }

  /** Sets the 5-hour penalties, sorts, marks the selectable rows and returns them in order. */
  finish(): CandidateRow[] {
    // A near-limit row never counts itself (it is not "healthy"), so any count > 0 is another pool.
    if (this.healthyBehindPace > 0) {
      for (const entry of this.nearLimit) {
        entry.row.nearFiveHourPenalty = true;
        entry.classKey |= PENALTY_BIT;
      }
    }
    const entries = this.entries;
    entries.sort(compareEntries);
    const first = entries[0];
    if (first === undefined) return [];
    // Keys 1–5 are every bit of the class key but the lowest (key 6, `assigned`).
    // The lists the reason line needs are read off the class bits, without touching the rows again.
    const topClass = first.classKey >> 1;
    const ordered: CandidateRow[] = new Array(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      const key = entry.classKey;
      if (key >> 1 === topClass) entry.row.selectable = true;
      if (key === first.classKey && this.firstClassCount === i) this.firstClassCount++;
      if (key & DRAINING_BIT) this.draining.push(entry.row);
      if (key & OVER_LIMIT_BIT) this.forecastOver.push(entry.row);
      if (key & METERED_BIT) this.metered.push(entry.row);
      ordered[i] = entry.row;
    }
    return ordered;
  }
}

type MutableRow = { -readonly [K in keyof CandidateRow]: CandidateRow[K] };

interface SortEntry {
  classKey: number;
  readonly score: number;
  readonly poolId: string;
  readonly row: MutableRow;
}

const DRAINING_BIT = 32;
const OVER_LIMIT_BIT = 16;
const PENALTY_BIT = 8;
const METERED_BIT = 4;

function compareEntries(a: SortEntry, b: SortEntry): number {
  if (a.classKey !== b.classKey) return a.classKey - b.classKey;
  if (a.score !== b.score) return a.score > b.score ? -1 : 1;
  return a.poolId < b.poolId ? -1 : a.poolId > b.poolId ? 1 : 0;
}

/**
 * Keys 1–6 as one integer, smaller is preferred: draining (32), forecast over limit (16), 5-hour
 * penalty (8), not free (4), not urgent (2), not assigned (1).
 */
export function classKey(
  row: Pick<
    CandidateRow,
    'draining' | 'forecastOverLimit' | 'nearFiveHourPenalty' | 'free' | 'urgent' | 'assigned'
  >,
): number {
  return (
    (row.draining ? DRAINING_BIT : 0) |
    (row.forecastOverLimit ? OVER_LIMIT_BIT : 0) |
    (row.nearFiveHourPenalty ? PENALTY_BIT : 0) |
    (row.free ? 0 : METERED_BIT) |
    (row.urgent ? 0 : 2) |
    (row.assigned ? 0 : 1)
  );
}

/** The comparator of {@link CandidateOrder}: negative when `a` is preferred. */
export function compareCandidates(a: CandidateRow, b: CandidateRow): number {
  return compareEntries(
    { classKey: classKey(a), score: rankScore(a), poolId: a.poolId, row: a },
    { classKey: classKey(b), score: rankScore(b), poolId: b.poolId, row: b },
  );
}

/** Key 7: urgency for an urgent pool, effective surplus otherwise. */
export function rankScore(row: Pick<CandidateRow, 'urgent' | 'urgency' | 'effectiveSurplus'>): number {
  return row.urgent && row.urgency !== null ? row.urgency : row.effectiveSurplus;
}

/**
 * Keys 1–5 equal: the two rows are in the same forecast/last-mile/free/urgency class (their
 * {@link classKey}s differ at most in the lowest bit, key 6 `assigned`, as `selectable` is decided).
 */
export function sameClass(a: CandidateRow, b: CandidateRow): boolean {
  return classKey(a) >> 1 === classKey(b) >> 1;
}
