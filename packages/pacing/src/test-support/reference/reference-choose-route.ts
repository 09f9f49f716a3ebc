// The routing decision as it was before the single-scan pick (issue 14), kept verbatim as the
// oracle of src/route/choose-route.reference.test.ts: every eligible pool's row built eagerly and
// every row sorted with the comparator. Test-only (excluded from the build); do not optimise it.
// Since then only the set of seen ids (PoolIdSet for Set<string>: validatePool takes it) and the
// pin's reason words (formatPinSource(pin)) changed here, with the code they call.
import { DEFAULT_INFLIGHT_PENALTY_PCT } from '../../constants';
import { noPoolKindOf } from '../../route/no-pool-kind';
import { checkCapable, checkRoute, checkSpent } from '../../route/pool-eligibility';
import { PoolIdSet } from '../../route/pool-id-set';
import {
  formatAssignmentClause,
  formatBurstGatedSuffix,
  formatDrainingTrailer,
  formatExcludedTrailer,
  formatExpiringDrainingTrailer,
  formatForecastLine,
  formatForecastOverTrailer,
  formatFreeClause,
  formatLastMileTrailer,
  formatMostBehindClause,
  formatNearlySpent,
  formatNoEligiblePool,
  formatNoPoolWithQuota,
  formatPinClause,
  formatPinnedReserveTrailer,
  formatPinSource,
  formatPreferredOverBusierTrailer,
  formatRouteSummary,
  formatRouteTrailer,
  formatUrgentClause,
} from '../../route/reason-line';
import {
  validateInputObject,
  validatePool,
  validateRouteInput,
  validateTaskAndSettings,
} from '../../route/validate-route-input';
import type {
  CandidateRow,
  PoolRejection,
  PoolSnapshot,
  RouteDecision,
  RouteSettings,
  RouteTask,
  WindowKind,
} from '../../types';
import { buildCandidateRow } from './reference-candidate-row';
import { CandidateOrder } from './reference-order-candidates';

/** The input of {@link chooseRoute}. */
interface ChooseRouteInput {
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
 * @throws InvalidInputError for malformed input (see `validateRouteInput`).
 */
export function referenceChooseRoute(input: ChooseRouteInput): RouteDecision {
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

  // One pass over the pools, in input order: validate, check, build the row. Nothing depends on
  // that order: rows are sorted with the pool id as the last key, rejections by pool id.
  const seen = new PoolIdSet(input.pools.length);
  const rejected: LabelledRejection[] = [];
  const order = new CandidateOrder();
  const removedDraining: CandidateRow[] = [];
  const pools = input.pools;
  for (let i = 0; i < pools.length; i++) {
    const pool = pools[i]!;
    validatePool(pool, i, seen);
    const excluded = excludedReason.get(pool.id);
    const rejection =
      checkCapable(pool, task) ??
      checkRoute(pool, task.route) ??
      (excluded === undefined ? null : ({ poolId: pool.id, kind: 'excluded', reason: excluded } as const)) ??
      checkSpent(pool, now);
    if (rejection !== null) {
      rejected.push({ rejection, label: pool.label ?? pool.id });
      continue;
    }
    const row = buildCandidateRow(pool, task, now, settings, penaltyPct);
    if (task.kind === 'workflow-step' && row.draining) {
      removedDraining.push(row);
      rejected.push({
        rejection: {
          poolId: pool.id,
          kind: 'draining',
          reason: formatNearlySpent(row.forecastPacingPct ?? 0, row.pacingResetsAt),
          ...(row.pacingResetsAt === null ? {} : { backAt: row.pacingResetsAt }),
          window: row.pacingWindow,
        },
        label: row.poolLabel,
      });
      continue;
    }
    order.add(row);
  }
  rejected.sort((a, b) => compareIds(a.rejection.poolId, b.rejection.poolId));
  removedDraining.sort((a, b) => compareIds(a.poolId, b.poolId));
  const rejections = rejected.map((r) => r.rejection);

  const candidates = order.finish();
  const chosen = candidates[0];
  if (chosen === undefined) return noPool(pools.length, rejected);

  const trailers = [
    ...commonTrailers(chosen, order.forecastOver, [...order.draining, ...removedDraining]),
    ...preferredOverBusier(chosen, candidates, order.firstClassCount),
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

  return {
    poolId: chosen.poolId,
    model: chosen.model,
    reason: [mainClause(chosen, order.metered, task), ...trailers].join(' · ') + suffix,
    candidates,
    rejected: rejections,
    forecastLine: formatForecastLine(chosen),
  };
}

/** A rejection with the pool's display label, for reason lines. */
interface LabelledRejection {
  readonly rejection: PoolRejection;
  readonly label: string;
}

/** Pool ids compare by UTF-16 code unit, never by locale, so every tool orders them alike. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The main clause names the rule that decided the pick: free, then urgency, then assignment. */
function mainClause(chosen: CandidateRow, metered: readonly CandidateRow[], task: RouteTask): string {
  if (chosen.free) return formatFreeClause(chosen, metered);
  if (chosen.urgent) return formatUrgentClause(chosen);
  if (chosen.assigned) return formatAssignmentClause(chosen, task.tier);
  return formatMostBehindClause(chosen);
}

/**
 * Trailers that apply with or without a pin: last mile, forecast over 100%, draining (expiring
 * ones first). `draining` lists the draining candidates in preference order, then the draining
 * pools a workflow step removed, by id.
 */
function commonTrailers(
  chosen: CandidateRow,
  forecastOver: readonly CandidateRow[],
  draining: readonly CandidateRow[],
): string[] {
  const trailers: string[] = [];
  if (chosen.nearFiveHourLimit) trailers.push(formatLastMileTrailer(chosen));
  if (forecastOver.length > 0) trailers.push(formatForecastOverTrailer(forecastOver));
  const expiring = draining.filter((row) => row.expiringSoon);
  const plain = draining.filter((row) => !row.expiringSoon);
  if (expiring.length > 0) trailers.push(formatExpiringDrainingTrailer(expiring));
  if (plain.length > 0) trailers.push(formatDrainingTrailer(plain));
  return trailers;
}

/**
 * `preferred over busier`: candidates ranked below the winner in the same class (keys 1–6 equal,
 * so the score decided), ranked on effective surplus (not urgency), whose pace was higher than the
 * winner's, and whose in-flight charge is what dropped them (without it they would have scored
 * above the winner).
 */
function preferredOverBusier(
  chosen: CandidateRow,
  candidates: readonly CandidateRow[],
  firstClassCount: number,
): string[] {
  if (chosen.urgent) return [];
  const busier: CandidateRow[] = [];
  // Rows sharing keys 1–6 with the winner are the leading `firstClassCount` rows.
  for (let i = 1; i < firstClassCount; i++) {
    const row = candidates[i]!;
    if (
      row.inflightCharge > 0 &&
      (row.pace ?? 0) > (chosen.pace ?? 0) &&
      row.effectiveSurplus + row.inflightCharge > chosen.effectiveSurplus
    ) {
      busier.push(row);
    }
  }
  return busier.length === 0 ? [] : [formatPreferredOverBusierTrailer(busier)];
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
  // A pin may spend the reserve: only the 100% limit keeps the pinned pool out.
  const unusable = task.excludedPools?.find((e) => e.poolId === pinned!.id && e.evenPinned === true);
  const rejection =
    (unusable === undefined
      ? null
      : ({ poolId: pinned.id, kind: 'excluded', reason: unusable.reason } as const)) ??
    checkCapable(pinned, task) ??
    checkSpent(pinned, now, { ignoreReserve: true });
  if (rejection !== null) {
    return {
      poolId: null,
      model: null,
      reason: `pinned to ${pinned.label ?? pinned.id} (${source}): ${rejection.reason}`,
      candidates: [],
      rejected: sortById([...rejected, rejection]),
      noPoolKind: noPoolKindOf([...rejected, rejection]),
      ...(rejection.backAt === undefined ? {} : { backAt: rejection.backAt }),
    };
  }
  const order = new CandidateOrder();
  order.add(buildCandidateRow(pinned, task, now, settings, penaltyPct));
  const candidates = order.finish();
  const chosen = candidates[0]!;
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
      ...commonTrailers(chosen, order.forecastOver, order.draining),
    ].join(' · '),
    candidates,
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

function sortById(list: PoolRejection[]): PoolRejection[] {
  return list.sort((a, b) => compareIds(a.poolId, b.poolId));
}
