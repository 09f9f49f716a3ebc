import { type BullswarmRuntime, buildPoolSnapshots, routeTask } from '@bullswarm/dispatch';
import {
  type CandidateRow,
  type CapacityVerdictKind,
  capacityVerdict,
  type EffortTier,
  type Lane,
  type TaskRoute,
} from '@bullswarm/pacing';
import { DEFAULT_LANE_TIER } from '@bullswarm/pacing/internal';
import { capacityThresholds, parseCapacityCaps } from '../capacity/capacity-env';
import { BULLSWARM_POOL, capFor, resolvePool } from '../capacity/read-capacity';
import { SwarmInputError } from '../errors/swarm-input-error';
import type { Plan } from '../plans/plan-schema';
import { BULLSWARM_AGENT, type SwarmEnv } from '../settings/swarm-env';
import type { Swarm } from '../store/create-swarm';

/** Options of {@link pickAccount}. */
export interface PickAccountOptions {
  /** A connector id, a provider family, or `any`. */
  readonly kind: string;
  /** The lead the account is picked for: its own account is left out. */
  readonly owner: string;
  /** More accounts to leave out (ids or labels, `@` optional), e.g. the spent one. */
  readonly exclude?: readonly string[];
  /** Why `exclude` leaves them out, as the left-out list says it (default `excluded by the caller`). */
  readonly excludeReason?: string;
  /** When given and it declares `pools`, only those accounts are ranked. */
  readonly plan?: Pick<Plan, 'id' | 'pools'>;
  /** Prefer accounts of a provider family other than this one (another vendor) when any can take it. */
  readonly preferOtherFamilyThan?: string;
  /**
   * A long task (a plan task marked `long`): accounts whose capacity is known (`ok`, `low`) go
   * before accounts whose capacity is `unknown` — a lead "prefers known-capacity accounts for long
   * tasks" (swarm-autonomy, "The capacity loop").
   */
  readonly long?: boolean;
  readonly lane?: Lane;
  readonly tier?: EffortTier;
  /** Environment of thresholds and caps (default the runtime's). */
  readonly env?: SwarmEnv;
}

/** One ranked account. */
export interface PickedAccount {
  readonly poolId: string;
  readonly label: string;
  readonly connectorId: string;
  readonly providerFamily: string;
  readonly capacity: CapacityVerdictKind;
  readonly freePct: number | null;
  readonly row: CandidateRow;
}

/** The result of {@link pickAccount}. */
export interface PickResult {
  readonly kind: string;
  /** The best account, or undefined when none can take the work. */
  readonly best: PickedAccount | undefined;
  /** Selectable accounts in preference order (the best first). */
  readonly ranked: readonly PickedAccount[];
  /**
   * Every account left out, with why: leased, the lead's own, excluded, not declared, critical,
   * routing rejections, and — in pacing's order — eligible accounts pacing ranked but did not let
   * be chosen (e.g. `not urgent while sim:x is expiring`, see {@link whyNotSelectable}).
   */
  readonly leftOut: readonly { readonly poolId: string; readonly reason: string }[];
  /** The routing reason line of the pick. */
  readonly reason: string;
  readonly backAt: number | undefined;
  /** Accounts left out because a lane holds them (they come back when it releases them). */
  readonly held: readonly string[];
  /**
   * Accounts left out for lack of room — capacity critical, or spent / nearly spent for routing —
   * each with when its binding window resets, when known.
   */
  readonly noRoom: readonly { readonly poolId: string; readonly resetsAt: number | undefined }[];
  /** The soonest known reset among `noRoom`. */
  readonly soonestReset: { readonly poolId: string; readonly at: number } | undefined;
}

/**
 * Ranks the declared accounts for a kind of work by pacing (`routeTask` / `chooseRoute`
 * candidate order), leaving out: accounts leased to a lane, the owner's own account (its
 * registered pool, and `$BULLSWARM_POOL` when the owner is this agent), `exclude`, accounts the
 * plan does not declare, and accounts whose capacity verdict (with the environment's caps) is
 * `critical`. With `long`, accounts of known capacity go before those of unknown capacity; with
 * `preferOtherFamilyThan`, accounts of another provider family go first when any is selectable
 * ("another vendor when the task allows"); known capacity comes first when both are asked, then
 * the family, then pacing's order (each preference is a stable partition of pacing's ranking).
 * Only declared pools are ever ranked.
 *
 * @throws SwarmInputError for an unknown kind; UnknownPoolError for an exclude naming no pool.
 */
export async function pickAccount(
  runtime: BullswarmRuntime,
  swarm: Swarm,
  options: PickAccountOptions,
): Promise<PickResult> {
  const env = options.env ?? runtime.env;
  const kind = options.kind;
  const families = new Set([...runtime.connectors.values()].map((c) => c.providerFamily));
  let route: TaskRoute | undefined;
  if (kind === 'any') route = undefined;
  else if (runtime.connectors.has(kind)) {
    route = { pools: { use: runtime.state.pools.filter((p) => p.connector === kind).map((p) => p.id) } };
  } else if (families.has(kind)) route = { providers: { use: [kind] } };
  else {
    throw new SwarmInputError({
      field: '<kind>',
      expected: `any, a connector id (${[...runtime.connectors.keys()].sort().join(', ')}) or a provider family (${[...families].sort().join(', ')})`,
      received: kind,
    });
  }

  const leftOut = new Map<string, string>();
  const leaveOut = (poolId: string, reason: string) => {
    if (!leftOut.has(poolId)) leftOut.set(poolId, reason);
  };
  for (const ref of options.exclude ?? [])
    leaveOut(resolvePool(runtime, ref), options.excludeReason ?? 'excluded by the caller');
  const ownPools = new Set<string>();
  const ownerAgent = await swarm.agents.get(options.owner);
  if (ownerAgent?.poolId) ownPools.add(ownerAgent.poolId);
  if (env[BULLSWARM_AGENT] === options.owner && env[BULLSWARM_POOL]) ownPools.add(env[BULLSWARM_POOL]!);
  for (const poolId of ownPools) leaveOut(poolId, `the lead ${options.owner}'s own account`);
  let held: string[] = [];
  for (const lease of await swarm.leases.list()) {
    if (!leftOut.has(lease.poolId)) held.push(lease.poolId);
    leaveOut(lease.poolId, `leased to ${lease.holder} by ${lease.owner}`);
  }
  if (options.plan?.pools !== undefined) {
    const declared = new Set(options.plan.pools.map((ref) => resolvePool(runtime, ref)));
    for (const pool of runtime.state.pools) {
      if (!declared.has(pool.id)) leaveOut(pool.id, `not declared by plan ${options.plan.id}`);
    }
    held = held.filter((poolId) => declared.has(poolId));
  }

  const snapshots = await buildPoolSnapshots(runtime);
  const thresholds = capacityThresholds(env);
  const caps = parseCapacityCaps(env);
  const capacity = new Map<string, { verdict: CapacityVerdictKind; freePct: number | null }>();
  const noRoom = new Map<string, number | undefined>();
  for (const pool of snapshots.pools) {
    const cap = capFor(runtime, pool.id, caps);
    const verdict = capacityVerdict({
      meter: pool.meter,
      now: snapshots.now,
      ...(pool.reserves === undefined ? {} : { reserves: pool.reserves }),
      lowPct: thresholds.lowPct,
      criticalPct: thresholds.criticalPct,
      ...(cap === undefined ? {} : { capPct: cap.pct }),
    });
    capacity.set(pool.id, { verdict: verdict.verdict, freePct: verdict.freePct });
    if (verdict.verdict === 'critical' && !leftOut.has(pool.id)) {
      noRoom.set(pool.id, pool.meter.windows.find((w) => w.kind === verdict.bindingWindow)?.resetsAt);
      leaveOut(pool.id, `capacity critical (${verdict.reason})`);
    }
  }

  const lane = options.lane ?? 'build';
  const { decision } = await routeTask(
    runtime,
    {
      lane,
      tier: options.tier ?? DEFAULT_LANE_TIER[lane],
      kind: 'single-run',
      ...(route === undefined ? {} : { route }),
      excludedPools: [...leftOut].map(([poolId, reason]) => ({ poolId, reason })),
    },
    { snapshots },
  );
  const byId = new Map(snapshots.pools.map((p) => [p.id, p]));
  let ranked: PickedAccount[] = decision.candidates
    .filter((row) => row.selectable)
    .map((row) => {
      const pool = byId.get(row.poolId)!;
      const cap = capacity.get(row.poolId) ?? { verdict: 'unknown' as const, freePct: null };
      return {
        poolId: row.poolId,
        label: row.poolLabel,
        connectorId: pool.connectorId,
        providerFamily: pool.providerFamily,
        capacity: cap.verdict,
        freePct: cap.freePct,
        row,
      };
    });
  if (options.preferOtherFamilyThan !== undefined) {
    const other = ranked.filter((a) => a.providerFamily !== options.preferOtherFamilyThan);
    const same = ranked.filter((a) => a.providerFamily === options.preferOtherFamilyThan);
    ranked = [...other, ...same];
  }
  if (options.long === true) {
    const known = ranked.filter((a) => a.capacity !== 'unknown');
    const unknown = ranked.filter((a) => a.capacity === 'unknown');
    ranked = [...known, ...unknown];
  }
  const reasons = [...leftOut].map(([poolId, reason]) => ({ poolId, reason }));
  const first = decision.candidates[0];
  for (const row of decision.candidates) {
    if (!row.selectable && first !== undefined && !leftOut.has(row.poolId)) {
      reasons.push({ poolId: row.poolId, reason: whyNotSelectable(row, first) });
    }
  }
  for (const rejected of decision.rejected) {
    if (leftOut.has(rejected.poolId)) continue;
    reasons.push({ poolId: rejected.poolId, reason: rejected.reason });
    if (rejected.kind === 'spent' || rejected.kind === 'draining')
      noRoom.set(rejected.poolId, rejected.backAt);
  }
  // Only accounts of the kind asked for come back for this work.
  const ofKind = (poolId: string) => {
    const pool = byId.get(poolId);
    return kind === 'any' || pool?.connectorId === kind || pool?.providerFamily === kind;
  };
  held = held.filter(ofKind);
  for (const poolId of [...noRoom.keys()]) if (!ofKind(poolId)) noRoom.delete(poolId);
  let soonestReset: PickResult['soonestReset'];
  for (const [poolId, at] of noRoom) {
    if (at !== undefined && (soonestReset === undefined || at < soonestReset.at))
      soonestReset = { poolId, at };
  }
  return {
    kind,
    best: ranked[0],
    ranked,
    leftOut: reasons,
    reason: decision.reason,
    backAt: decision.backAt,
    held,
    noRoom: [...noRoom].map(([poolId, resetsAt]) => ({ poolId, resetsAt })),
    soonestReset,
  };
}

/**
 * Why pacing ranked `row` but only lets rows of the first row's class be chosen (the filters of
 * `orderCandidates`, keys 1–5): draining, forecast over the 5-hour limit, near the 5-hour line,
 * free models first, urgent (expiring-soon) pools first.
 */
export function whyNotSelectable(
  row: CandidateRow,
  first: Pick<
    CandidateRow,
    'poolId' | 'draining' | 'forecastOverLimit' | 'nearFiveHourPenalty' | 'free' | 'urgent'
  >,
): string {
  if (row.draining && !first.draining) return `draining its pacing window while ${first.poolId} is not`;
  if (row.forecastOverLimit && !first.forecastOverLimit)
    return `forecast over its 5-hour limit while ${first.poolId} is not`;
  if (row.nearFiveHourPenalty && !first.nearFiveHourPenalty)
    return `near its 5-hour limit while ${first.poolId} is behind pace`;
  if (!row.free && first.free) return `not free while ${first.poolId} runs a free model`;
  if (!row.urgent && first.urgent) return `not urgent while ${first.poolId} is expiring`;
  return `not selectable (ranked below ${first.poolId})`;
}
