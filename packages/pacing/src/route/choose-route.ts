import { DEFAULT_INFLIGHT_PENALTY_PCT } from '../constants';
import type {
  CandidateRow,
  PoolRejection,
  PoolSnapshot,
  RouteDecision,
  RouteSettings,
  RouteTask,
  WindowKind,
} from '../types';
import { candidateContext, writeCandidate } from './candidate-row';
import {
  CandidateTable,
  DRAINING,
  EXPIRING_SOON,
  F_FORECAST_PACING,
  F_PACING_ELAPSED,
  F_PACING_RESETS_AT,
} from './candidate-table';
import { commonTrailers, mainClause, preferredOverBusier, type RemovedDraining } from './decision-trailers';
import { noPoolKindOf } from './no-pool-kind';
import { CandidateOrder } from './order-candidates';
import { checkCapable, checkRoute, checkSpent } from './pool-eligibility';
import { PoolIdSet } from './pool-id-set';
import {
  formatBurstGatedSuffix,
  formatExcludedTrailer,
  formatForecastLine,
  formatNearlySpent,
  formatNoEligiblePool,
  formatNoPoolWithQuota,
  formatPinClause,
  formatPinnedReserveTrailer,
  formatPinSource,
  formatRouteSummary,
  formatRouteTrailer,
} from './reason-line';
import { SCREEN_GENERAL, screenPool } from './screen-pool';
import {
  validateInputObject,
  validatePool,
  validateRouteInput,
  validateTaskAndSettings,
} from './validate-route-input';

/** The input of {@link chooseRoute}. */
export interface ChooseRouteInput {
  /** Every pool known to this home, in any order. Ids must be unique. */
  readonly pools: readonly PoolSnapshot[];
  readonly task: RouteTask;
  /** The moment of the decision, epoch ms. Nothing reads a clock. */
  readonly now: number;
  readonly settings?: RouteSettings;
}

/**
 * Picks the pool a task goes to, and says why in one line (docs/routing.md, "The order decisions are
 * made"). Pure and deterministic: the same input gives the same decision, whatever the order of
 * `pools`; ties go to the lexicographically smaller pool id.
 *
 * Step 1, eligibility. Each pool that fails gets a {@link PoolRejection}, checked in this order:
 * disabled → lane → capability → tier model (`ineligible`); the task's route (`route`); the
 * caller's `excludedPools` (`excluded`); a metered window at 100%, or inside the reserve the pool
 * keeps on it (`spent`, named in the ` (burst-gated: …)` suffix as `<pool> inside its 15% weekly
 * reserve`). The route is checked
 * before the caller's exclusions and the spent windows (a choice; the brief lists the route filters
 * separately): a pool the route rules out could not run the step whatever its quota, so it must not
 * turn a "no pool" answer into a usage-limit one or appear as burst-gated.
 *
 * A pin (`task.pin`) reduces the candidates to that one pool before routing runs: it must still be
 * enabled, capable and not at a 100% limit, but the route, `excludedPools`, draining and the reserve
 * the pool keeps do not apply to it (the operator chose it): a pinned pool inside its reserve is
 * picked, and the reason says so (`uses its 15% weekly reserve (pinned)`). Every other pool is
 * rejected as `not the pinned pool`.
 *
 * For a workflow step a draining pool (forecast >= 95% of its pacing window and ahead of its clock)
 * is removed (`draining`, `nearly spent (forecast <n>%) until <reset>`); for a single run it is
 * ordered last. The survivors are ordered by `CandidateOrder`; the first row is the pick.
 *
 * With no pick, `poolId` is null and `noPoolKind` says why: `quota` when every pool that could
 * otherwise run the task is spent or draining (a pool excluded by the caller counts against that,
 * and the reason then names it in an `excluded: …` trailer), else `unavailable`; `backAt` is the
 * earliest known return among the spent/draining pools.
 *
 * Speed (docs/benchmarks.md): the pick and its reason line cost one pass over the pools and a few
 * linear scans of the candidates' numbers; over more than 64 candidates the rows are built and
 * sorted only when `candidates` is first read (a getter on the decision, which then keeps the
 * array, so every read returns the same rows; assigning it replaces them, as for a plain
 * property). A caller that only
 * needs the pick (`poolId`, `model`, `reason`, `forecastLine`) never pays for 10,000 sorted rows;
 * one that reads `candidates`, spreads the decision or writes it as JSON gets the full rows, in the
 * same order and with the same fields as ever (checked against the eager sort in
 * choose-route.reference.test.ts). The other fields are plain values.
 *
 * @throws InvalidInputError for malformed input (see `validateRouteInput`).
 */
export function chooseRoute(input: ChooseRouteInput): RouteDecision {
  validateInputObject(input);
  const { task, now } = input;
  validateTaskAndSettings(task, now, input.settings);
  // Throws, naming `pools`; each pool is validated as the pass below (or the pin's) reaches it.
  if (!Array.isArray(input.pools)) validateRouteInput(input);
  const settings = input.settings ?? {};
  const penaltyPct = settings.inflightPenaltyPct ?? DEFAULT_INFLIGHT_PENALTY_PCT;

  if (task.pin !== undefined) return choosePinned(input.pools, task, now, settings, penaltyPct);

  const excludedReason = new Map<string, string>();
  for (const entry of task.excludedPools ?? []) {
    if (!excludedReason.has(entry.poolId)) excludedReason.set(entry.poolId, entry.reason);
  }

  // One pass over the pools, in input order: validate, check, write the candidate's numbers.
  // Nothing depends on that order: candidates are ordered with the pool id as the last key,
  // rejections sorted by pool id.
  const pools = input.pools;
  const seen = new PoolIdSet(pools.length);
  const rejected: LabelledRejection[] = [];
  const table = new CandidateTable(pools.length);
  const order = new CandidateOrder(table);
  const removedDraining: RemovedDraining[] = [];
  const workflowStep = task.kind === 'workflow-step';
  const context = candidateContext(task, now, settings, penaltyPct);
  const anyExcluded = excludedReason.size > 0;
  const excludedOrNull = anyExcluded ? excludedReason : null;
  for (let i = 0; i < pools.length; i++) {
    const pool = pools[i]!;
    // The usual pool is validated, checked and written in one read; screenPool leaves the rest to
    // validatePool and the checks, as before.
    let slot = screenPool(pool, seen, table, context, task, excludedOrNull);
    if (slot === SCREEN_GENERAL) validatePool(pool, i, seen);
    if (slot < 0) {
      const excluded = anyExcluded ? excludedReason.get(pool.id) : undefined;
      const rejection =
        checkCapable(pool, task) ??
        checkRoute(pool, task.route) ??
        (excluded === undefined
          ? null
          : ({ poolId: pool.id, kind: 'excluded', reason: excluded } as const)) ??
        checkSpent(pool, now);
      if (rejection !== null) {
        rejected.push({ rejection, label: pool.label ?? pool.id });
        continue;
      }
      slot = writeCandidate(table, pool, context);
    }
    if (workflowStep && (table.flags[slot]! & DRAINING) !== 0) {
      // A draining pool has a pacing reading and a known reset, so these numbers are all known.
      const o = table.offset(slot);
      const forecastPacingPct = table.numbers[o + F_FORECAST_PACING]!;
      const resetsAt = table.numbers[o + F_PACING_RESETS_AT]!;
      const label = table.labels[slot]!;
      removedDraining.push({
        poolId: pool.id,
        poolLabel: label,
        forecastPacingPct,
        pacingElapsedPct: table.numbers[o + F_PACING_ELAPSED]!,
        expiringSoon: (table.flags[slot]! & EXPIRING_SOON) !== 0,
      });
      table.release(slot);
      rejected.push({
        rejection: {
          poolId: pool.id,
          kind: 'draining',
          reason: formatNearlySpent(forecastPacingPct, resetsAt),
          backAt: resetsAt,
          window: pool.pacingWindow,
        },
        label,
      });
      continue;
    }
    order.add(slot);
  }
  // Pools listed by id leave both lists in order already: checking costs less than sort's calls.
  if (!rejectionsInOrder(rejected)) {
    rejected.sort((a, b) => compareIds(a.rejection.poolId, b.rejection.poolId));
  }
  if (!removedInOrder(removedDraining)) removedDraining.sort((a, b) => compareIds(a.poolId, b.poolId));
  const rejections = rejected.map((r) => r.rejection);

  const first = order.pick();
  if (first < 0) return noPool(pools.length, rejected);
  const chosen = order.rowAt(first, first);

  const trailers = [
    ...commonTrailers(chosen, order, first, removedDraining),
    ...preferredOverBusier(chosen, order, first),
  ];
  const routeSummary = task.route === undefined ? null : formatRouteSummary(task.route);
  if (routeSummary !== null) trailers.push(formatRouteTrailer(routeSummary));
  const excluded = rejected.filter((r) => r.rejection.kind === 'excluded');
  if (excluded.length > 0) {
    trailers.push(
      formatExcludedTrailer(excluded.map((r) => ({ label: r.label, reason: r.rejection.reason }))),
    );
  }
  const burstGated = rejected.filter((r) => r.rejection.kind === 'spent');
  const suffix =
    burstGated.length === 0
      ? ''
      : formatBurstGatedSuffix(
          burstGated.map((r) => ({
            label: r.label,
            window: r.rejection.window ?? ('five_hour' as WindowKind),
            ...(r.rejection.reservePct === undefined ? {} : { reservePct: r.rejection.reservePct }),
          })),
        );

  const reason = [mainClause(chosen, order, first, task), ...trailers].join(' · ') + suffix;
  const forecastLine = formatForecastLine(chosen);
  if (table.size <= EAGER_ROWS_UP_TO) {
    return {
      poolId: chosen.poolId,
      model: chosen.model,
      reason,
      candidates: orderedRows(order, first, chosen),
      rejected: rejections,
      forecastLine,
    };
  }
  // `candidates` is an own enumerable accessor (JSON, spread and equality see the rows, in this
  // key order), the same getter and setter for every decision, reading its state from a hidden
  // property. An object literal's `get` would be a new closure per decision: V8 then gives each
  // decision a hidden class of its own, kept in the old generation, and through it the closure and
  // the decision's whole table survived every young-generation collection until a full one
  // (measured: 0.7 of the 1.0 MB a 10,000-pool pick allocates, promoted; scavenges of 8–20 ms).
  const decision = { poolId: chosen.poolId, model: chosen.model, reason } as Record<string, unknown>;
  Object.defineProperty(decision, 'candidates', LAZY_CANDIDATES);
  decision.rejected = rejections;
  decision.forecastLine = forecastLine;
  const lazy: LazyCandidates = { order, first, chosen, rows: undefined };
  Object.defineProperty(decision, LAZY, { value: lazy });
  // console.log / util.inspect show the rows, not `[Getter/Setter]` (not enumerable: JSON, spread
  // and equality never see it).
  Object.defineProperty(decision, INSPECT, { value: inspectDecision });
  return decision as unknown as RouteDecision;
}

/**
 * Up to this many candidates the rows are built and sorted at once, into a plain property: for a
 * few dozen rows that costs less than setting up the getter (measured in docs/benchmarks.md).
 */
const EAGER_ROWS_UP_TO = 64;

/** What a decision's `candidates` getter builds its rows from, and the rows once built (or set). */
interface LazyCandidates {
  readonly order: CandidateOrder;
  readonly first: number;
  readonly chosen: CandidateRow;
  rows: readonly CandidateRow[] | undefined;
}

/** The hidden property of a decision holding its {@link LazyCandidates}. */
const LAZY = Symbol('candidates');

/** `candidates`, built and sorted on first read, then kept; assigning replaces them. */
const LAZY_CANDIDATES: PropertyDescriptor = {
  get(this: { [LAZY]: LazyCandidates }): readonly CandidateRow[] {
    const lazy = this[LAZY];
    if (lazy.rows === undefined) lazy.rows = orderedRows(lazy.order, lazy.first, lazy.chosen);
    return lazy.rows;
  },
  set(this: { [LAZY]: LazyCandidates }, value: readonly CandidateRow[]) {
    this[LAZY].rows = value;
  },
  enumerable: true,
  configurable: true,
};

/** Node's `util.inspect.custom`, by its registered name (this package imports nothing from Node). */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

function inspectDecision(this: RouteDecision): RouteDecision {
  return { ...this };
}

/** Every candidate row in order; `chosen` is the first row's object (already built for the reason). */
function orderedRows(order: CandidateOrder, first: number, chosen: CandidateRow): CandidateRow[] {
  const slots = order.ordered();
  const rows: CandidateRow[] = new Array(slots.length);
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    rows[i] = slot === first ? chosen : order.rowAt(slot, first);
  }
  return rows;
}

/** A rejection with the pool's display label, for reason lines. */
interface LabelledRejection {
  readonly rejection: PoolRejection;
  readonly label: string;
}

/** Every rejection's pool id is below the next one's (ids are unique: sorting would not move any). */
function rejectionsInOrder(list: readonly LabelledRejection[]): boolean {
  for (let i = 1; i < list.length; i++) {
    if (!(list[i - 1]!.rejection.poolId < list[i]!.rejection.poolId)) return false;
  }
  return true;
}

/** {@link rejectionsInOrder} for the removed draining pools. */
function removedInOrder(list: readonly RemovedDraining[]): boolean {
  for (let i = 1; i < list.length; i++) if (!(list[i - 1]!.poolId < list[i]!.poolId)) return false;
  return true;
}

/** Pool ids compare by UTF-16 code unit, never by locale, so every tool orders them alike. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function choosePinned(
  pools: readonly PoolSnapshot[],
  task: RouteTask,
  now: number,
  settings: RouteSettings,
  penaltyPct: number,
): RouteDecision {
  const pin = task.pin!;
  const source = formatPinSource(pin);
  const rejected: PoolRejection[] = [];
  const seen = new PoolIdSet(pools.length);
  let pinned: PoolSnapshot | undefined;
  for (let i = 0; i < pools.length; i++) {
    const pool = pools[i]!;
    validatePool(pool, i, seen);
    if (pool.id === pin.poolId) pinned = pool;
    else rejected.push({ poolId: pool.id, kind: 'route', reason: 'not the pinned pool' });
  }
  if (pinned === undefined) {
    return {
      poolId: null,
      model: null,
      reason: `pinned to ${pin.poolId} (${source}): unknown pool`,
      candidates: [],
      rejected: sortById(rejected),
      noPoolKind: noPoolKindOf(rejected),
    };
  }
  // A pool that cannot run anything now (excluded `evenPinned`: its connector is missing, it is the
  // caller, its probe failed) is no pick even pinned. A pin may spend the reserve: only the 100%
  // limit keeps the pinned pool out.
  const rejection =
    unusableEvenPinned(pinned, task) ??
    checkCapable(pinned, task) ??
    checkSpent(pinned, now, { ignoreReserve: true });
  if (rejection !== null) {
    const all = sortById([...rejected, rejection]);
    return {
      poolId: null,
      model: null,
      reason: `pinned to ${pinned.label ?? pinned.id} (${source}): ${rejection.reason}`,
      candidates: [],
      rejected: all,
      noPoolKind: noPoolKindOf(all),
      ...(rejection.backAt === undefined ? {} : { backAt: rejection.backAt }),
    };
  }
  const table = new CandidateTable(1);
  const order = new CandidateOrder(table);
  order.add(writeCandidate(table, pinned, candidateContext(task, now, settings, penaltyPct)));
  const first = order.pick();
  const chosen = order.rowAt(first, first);
  const inReserve = checkSpent(pinned, now);
  const reserveTrailer =
    inReserve?.reservePct === undefined || inReserve.window === undefined
      ? []
      : [formatPinnedReserveTrailer(inReserve.window, inReserve.reservePct)];
  return {
    poolId: chosen.poolId,
    model: chosen.model,
    reason: [
      formatPinClause(chosen, pin),
      ...reserveTrailer,
      ...commonTrailers(chosen, order, first, []),
    ].join(' · '),
    candidates: [chosen],
    rejected: sortById(rejected),
    forecastLine: formatForecastLine(chosen),
  };
}

function noPool(poolCount: number, rejected: readonly LabelledRejection[]): RouteDecision {
  const rejections = rejected.map((r) => r.rejection);
  const quota = rejected.filter((r) => r.rejection.kind === 'spent' || r.rejection.kind === 'draining');
  const entries = (list: readonly LabelledRejection[]) =>
    list.map((r) => ({ label: r.label, reason: r.rejection.reason }));
  if (poolCount > 0 && quota.length > 0) {
    let backAt: number | undefined;
    for (const { rejection } of quota) {
      if (rejection.backAt !== undefined && (backAt === undefined || rejection.backAt < backAt)) {
        backAt = rejection.backAt;
      }
    }
    // A pool the caller excluded is why this is `unavailable` rather than `quota`: name it too.
    const excluded = rejected.filter((r) => r.rejection.kind === 'excluded');
    const excludedTrailer = excluded.length === 0 ? '' : ` · ${formatExcludedTrailer(entries(excluded))}`;
    return {
      poolId: null,
      model: null,
      reason: formatNoPoolWithQuota(entries(quota)) + excludedTrailer,
      candidates: [],
      rejected: rejections,
      noPoolKind: noPoolKindOf(rejections),
      ...(backAt === undefined ? {} : { backAt }),
    };
  }
  return {
    poolId: null,
    model: null,
    reason: formatNoEligiblePool(entries(rejected)),
    candidates: [],
    rejected: rejections,
    noPoolKind: noPoolKindOf(rejections),
  };
}

/** The rejection of a pinned pool the task excludes `evenPinned` (see `RouteTask.excludedPools`). */
function unusableEvenPinned(pinned: PoolSnapshot, task: RouteTask): PoolRejection | null {
  const entry = task.excludedPools?.find((e) => e.poolId === pinned.id && e.evenPinned === true);
  return entry === undefined ? null : { poolId: pinned.id, kind: 'excluded', reason: entry.reason };
}

function sortById(list: PoolRejection[]): PoolRejection[] {
  return list.sort((a, b) => compareIds(a.poolId, b.poolId));
}
