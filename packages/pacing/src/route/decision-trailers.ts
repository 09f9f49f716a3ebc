import type { CandidateRow, RouteTask } from '../types';
import {
  EXPIRING_SOON,
  F_EFFECTIVE_SURPLUS,
  F_INFLIGHT_CHARGE,
  F_PACE,
  HAS_PACING_RESET,
} from './candidate-table';
import {
  type CandidateOrder,
  DRAINING_BIT,
  METERED_BIT,
  OVER_LIMIT_BIT,
  type SlotList,
} from './order-candidates';
import {
  formatAssignmentClause,
  formatDrainingTrailer,
  formatExpiringDrainingTrailer,
  formatForecastOverTrailer,
  formatFreeClause,
  formatLastMileTrailer,
  formatMostBehindClause,
  formatPreferredOverBusierTrailer,
  formatUrgentClause,
  REASON_LIST_LIMIT,
} from './reason-line';

// The clauses and trailers of a pick's reason line that read the candidate order (docs/routing.md):
// chooseRoute decides the pick; these only word it.
/** A draining pool a workflow step removed: what the draining trailer prints of it. */
export interface RemovedDraining {
  readonly poolId: string;
  readonly poolLabel: string;
  readonly forecastPacingPct: number | null;
  readonly pacingElapsedPct: number | null;
  readonly expiringSoon: boolean;
}

/** The head (the first {@link REASON_LIST_LIMIT}) of a list of rows, and the list's length. */
interface RowList {
  readonly rows: readonly CandidateRow[];
  readonly total: number;
}

function rowsOf(order: CandidateOrder, first: number, list: SlotList): RowList {
  return { rows: list.slots.map((slot) => order.rowAt(slot, first)), total: list.total };
}

/** The main clause names the rule that decided the pick: free, then urgency, then assignment. */
export function mainClause(
  chosen: CandidateRow,
  order: CandidateOrder,
  first: number,
  task: RouteTask,
): string {
  if (chosen.free) {
    // The metered candidates, in preference order (all of them rank below a free pick).
    const metered = rowsOf(order, first, order.top(METERED_BIT, 0, 0, REASON_LIST_LIMIT));
    return formatFreeClause(chosen, metered.rows, metered.total);
  }
  if (chosen.urgent) return formatUrgentClause(chosen);
  if (chosen.assigned) return formatAssignmentClause(chosen, task.tier);
  return formatMostBehindClause(chosen);
}

/**
 * Trailers that apply with or without a pin: last mile, forecast over 100%, draining (expiring
 * ones first). Each draining list holds the draining candidates in preference order, then the
 * draining pools a workflow step removed (`removed`, by id).
 */
export function commonTrailers(
  chosen: CandidateRow,
  order: CandidateOrder,
  first: number,
  removed: readonly RemovedDraining[],
): string[] {
  const trailers: string[] = [];
  if (chosen.nearFiveHourLimit) trailers.push(formatLastMileTrailer(chosen));
  const forecastOver = rowsOf(order, first, order.top(OVER_LIMIT_BIT, 0, 0, REASON_LIST_LIMIT));
  if (forecastOver.total > 0) trailers.push(formatForecastOverTrailer(forecastOver.rows, forecastOver.total));
  const expiring = drainingList(order, first, removed, true);
  const plain = drainingList(order, first, removed, false);
  if (expiring.total > 0) trailers.push(formatExpiringDrainingTrailer(expiring.rows, expiring.total));
  if (plain.total > 0) trailers.push(formatDrainingTrailer(plain.rows, plain.total));
  return trailers;
}

/** The draining candidates that are (or are not) expiring soon, then the removed ones alike. */
function drainingList(
  order: CandidateOrder,
  first: number,
  removed: readonly RemovedDraining[],
  expiringSoon: boolean,
): { readonly rows: readonly DrainingEntry[]; readonly total: number } {
  const candidates = rowsOf(
    order,
    first,
    order.top(DRAINING_BIT, EXPIRING_SOON, expiringSoon ? EXPIRING_SOON : 0, REASON_LIST_LIMIT),
  );
  const rows: DrainingEntry[] = [...candidates.rows];
  let total = candidates.total;
  for (const entry of removed) {
    if (entry.expiringSoon !== expiringSoon) continue;
    total++;
    if (rows.length < REASON_LIST_LIMIT) rows.push(entry);
  }
  return { rows, total };
}

type DrainingEntry = Pick<CandidateRow, 'poolLabel' | 'forecastPacingPct' | 'pacingElapsedPct'>;

/**
 * `preferred over busier`: candidates ranked below the winner in the same class (keys 1–6 equal,
 * so the score decided), ranked on effective surplus (not urgency), whose pace was higher than the
 * winner's, and whose in-flight charge is what dropped them (without it they would have scored
 * above the winner). Listed in preference order.
 */
export function preferredOverBusier(chosen: CandidateRow, order: CandidateOrder, first: number): string[] {
  if (chosen.urgent) return [];
  const { keys, flags, numbers, size } = order.table;
  const key = keys[first]!;
  const chosenPace = chosen.pace ?? 0;
  const slots: number[] = [];
  let total = 0;
  for (let slot = 0; slot < size; slot++) {
    if (keys[slot] !== key || slot === first) continue;
    const o = order.table.offset(slot);
    const charge = numbers[o + F_INFLIGHT_CHARGE]!;
    const pace = (flags[slot]! & HAS_PACING_RESET) !== 0 ? numbers[o + F_PACE]! : 0;
    if (
      charge > 0 &&
      pace > chosenPace &&
      numbers[o + F_EFFECTIVE_SURPLUS]! + charge > chosen.effectiveSurplus
    ) {
      total++;
      order.keep(slots, slot, REASON_LIST_LIMIT);
    }
  }
  if (total === 0) return [];
  const busier = rowsOf(order, first, { slots, total });
  return [formatPreferredOverBusierTrailer(busier.rows, busier.total)];
}
