import type { CandidateRow } from '../types';
import {
  ASSIGNED,
  type CandidateTable,
  DRAINING,
  F_PACE,
  FORECAST_OVER_LIMIT,
  FREE,
  HAS_PACING_RESET,
  NEAR_FIVE_HOUR_LIMIT,
  URGENT,
} from './candidate-table';

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
 * The candidates live in a {@link CandidateTable} (numbers, not row objects). Keys 1–6 are packed
 * into one integer per slot and the score computed once, so ordering compares two typed-array
 * entries and, on an exact tie, the ids. A decision needs the first row and, for its reason line,
 * at most {@link REASON_LIST_LIMIT} rows of a few lists: {@link pick} finds the first in one linear
 * scan and {@link top} the head of a list in another (keeping the best few, never sorting the
 * rest). Every row in order ({@link rows}) is a sort of all slots, done only when a caller reads
 * the decision's `candidates`. Both read the same total order (keys, score, id; ids are unique),
 * so the pick is always the first of the sorted rows.
 */
export class CandidateOrder {
  private readonly nearLimit: number[] = [];
  private healthyBehindPace = 0;
  /** After {@link pick}: the 5-hour penalty applies to the near-limit rows. */
  private penalty = false;

  constructor(readonly table: CandidateTable) {}

  /** Counts a slot just written to the table for the 5-hour penalty (its key has no penalty bit yet). */
  add(slot: number): void {
    const table = this.table;
    const flags = table.flags[slot]!;
    if ((flags & NEAR_FIVE_HOUR_LIMIT) !== 0) this.nearLimit.push(slot);
    else if (
      (flags & HAS_PACING_RESET) !== 0 &&
      table.numbers[table.offset(slot) + F_PACE]! > 0 &&
      (flags & (FORECAST_OVER_LIMIT | DRAINING)) === 0
    ) {
      this.healthyBehindPace++;
    }
  }

  /** Sets the 5-hour penalties and returns the first slot in order (the pick), or -1 with none. */
  pick(): number {
    const { keys, size } = this.table;
    // A near-limit row never counts itself (it is not "healthy"), so any count > 0 is another pool.
    if (this.healthyBehindPace > 0) {
      this.penalty = true;
      for (const slot of this.nearLimit) keys[slot]! |= PENALTY_BIT;
    }
    if (size === 0) return -1;
    let best = 0;
    for (let slot = 1; slot < size; slot++) if (this.before(slot, best)) best = slot;
    return best;
  }

  /** True when slot `a` is ordered before slot `b` (keys 1–6, then score descending, then id). */
  before(a: number, b: number): boolean {
    const { keys, scores } = this.table;
    const keyA = keys[a]!;
    const keyB = keys[b]!;
    if (keyA !== keyB) return keyA < keyB;
    const scoreA = scores[a]!;
    const scoreB = scores[b]!;
    if (scoreA !== scoreB) return scoreA > scoreB;
    return this.table.poolIds[a]! < this.table.poolIds[b]!;
  }

  /** The row of a slot, with its penalty and whether it shares keys 1–5 with the pick `first`. */
  rowAt(slot: number, first: number): CandidateRow {
    const keys = this.table.keys;
    const key = keys[slot]!;
    return this.table.rowAt(slot, (key & PENALTY_BIT) !== 0, key >> 1 === keys[first]! >> 1);
  }

  /**
   * The first `limit` slots in order among those whose key has any of `keyBits` (all slots with 0)
   * and whose flags masked by `flagMask` equal `flagValue`, and how many slots match in all.
   * One scan, keeping the best `limit` in order.
   */
  top(keyBits: number, flagMask: number, flagValue: number, limit: number): SlotList {
    const { keys, flags, size } = this.table;
    const slots: number[] = [];
    let total = 0;
    for (let slot = 0; slot < size; slot++) {
      if (keyBits !== 0 && (keys[slot]! & keyBits) === 0) continue;
      if ((flags[slot]! & flagMask) !== flagValue) continue;
      total++;
      this.keep(slots, slot, limit);
    }
    return { slots, total };
  }

  /** Inserts `slot` into the ordered `slots` if it is among the first `limit`. */
  keep(slots: number[], slot: number, limit: number): void {
    if (slots.length === limit && !this.before(slot, slots[limit - 1]!)) return;
    let i = slots.length < limit ? slots.length : limit - 1;
    while (i > 0 && this.before(slot, slots[i - 1]!)) {
      slots[i] = slots[i - 1]!;
      i--;
    }
    slots[i] = slot;
  }

  /** Every slot in order: a full sort, for when the decision's `candidates` are read. */
  ordered(): number[] {
    const size = this.table.size;
    const order: number[] = new Array(size);
    for (let slot = 0; slot < size; slot++) order[slot] = slot;
    const { keys, scores, poolIds } = this.table;
    // compareKeys on slots: the same total order as `before`.
    order.sort((a, b) => {
      const keyA = keys[a]!;
      const keyB = keys[b]!;
      if (keyA !== keyB) return keyA - keyB;
      const scoreA = scores[a]!;
      const scoreB = scores[b]!;
      if (scoreA !== scoreB) return scoreA > scoreB ? -1 : 1;
      const idA = poolIds[a]!;
      const idB = poolIds[b]!;
      return idA < idB ? -1 : idA > idB ? 1 : 0;
    });
    return order;
  }

  /** Whether the 5-hour penalty applies (set by {@link pick}). */
  get penalised(): boolean {
    return this.penalty;
  }
}

/** Some slots in order, and how many slots the list has in all. */
export interface SlotList {
  readonly slots: readonly number[];
  readonly total: number;
}

export const DRAINING_BIT = 32;
export const OVER_LIMIT_BIT = 16;
export const PENALTY_BIT = 8;
export const METERED_BIT = 4;

/** The comparator of the order: negative when `a` is preferred. */
function compareKeys(
  a: { classKey: number; score: number; poolId: string },
  b: { classKey: number; score: number; poolId: string },
): number {
  if (a.classKey !== b.classKey) return a.classKey - b.classKey;
  if (a.score !== b.score) return a.score > b.score ? -1 : 1;
  return a.poolId < b.poolId ? -1 : a.poolId > b.poolId ? 1 : 0;
}

/** {@link classKey} of a table slot's flags (no penalty bit: the ordering adds it). */
export function classKeyOfFlags(flags: number): number {
  return (
    ((flags & DRAINING) !== 0 ? DRAINING_BIT : 0) |
    ((flags & FORECAST_OVER_LIMIT) !== 0 ? OVER_LIMIT_BIT : 0) |
    ((flags & FREE) !== 0 ? 0 : METERED_BIT) |
    ((flags & URGENT) !== 0 ? 0 : 2) |
    ((flags & ASSIGNED) !== 0 ? 0 : 1)
  );
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

/** The order of {@link CandidateOrder} on rows: negative when `a` is preferred. */
export function compareCandidates(a: CandidateRow, b: CandidateRow): number {
  return compareKeys(
    { classKey: classKey(a), score: rankScore(a), poolId: a.poolId },
    { classKey: classKey(b), score: rankScore(b), poolId: b.poolId },
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
