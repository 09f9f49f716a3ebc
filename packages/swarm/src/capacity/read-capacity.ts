import { DEFAULT_ACCOUNT } from '@bullswarm/connectors';
import type { BullswarmRuntime } from '@bullswarm/dispatch';
import { applySubscriptionOverride, createMeterService, type MeterService } from '@bullswarm/meters';
import {
  type CapacityVerdict,
  type CapacityVerdictKind,
  capacityVerdict,
  type PoolMeter,
  type WindowKind,
} from '@bullswarm/pacing';
import { UnknownPoolError } from '@bullswarm/store';
import { SwarmInputError } from '../errors/swarm-input-error';
import { BULLSWARM_AGENT, type SwarmEnv } from '../settings/swarm-env';
import { CAPACITY_DECISIONS, type CapacityDecision, capacityLine } from './capacity-decision';
import {
  CAPACITY_METER_TTL_MS,
  type CapacityCap,
  type CapacityThresholds,
  capacityMaxAgeMs,
  capacityThresholds,
  parseCapacityCaps,
} from './capacity-env';

/** The environment variable bullswarm sets for every agent it launches: the pool it runs on. */
export const BULLSWARM_POOL = 'BULLSWARM_POOL';

/** A capacity report: the verdict, the numbers behind it, and the one-line form agents end messages with. */
export interface CapacityReport {
  readonly verdict: CapacityVerdictKind;
  /** Free share of the binding window, after any cap; null when unknown. */
  readonly freePct: number | null;
  readonly bindingWindow: WindowKind | null;
  /** Why, in one sentence. */
  readonly reason: string;
  /** What to do: `continue` (ok, unknown), `prepare` (low), `hand-off` (critical). */
  readonly decision: CapacityDecision;
  /** `capacity=ok 64% @work1 decision=continue`: the verdict, the free share, the account, the decision. */
  readonly line: string;
  /** The pool judged; null when none could be resolved (outside a launch). */
  readonly poolId: string | null;
  /** The label in the line (the pool's label, else its id). */
  readonly label: string;
  readonly thresholds: CapacityThresholds;
  /** The cap applied, when the environment caps this pool. */
  readonly cap: CapacityCap | undefined;
  /** The meter's status (`live`, `cache`, `stale`, `manual`, `unmetered`), when one was read. */
  readonly meterStatus: PoolMeter['status'] | null;
  /** When the reading was taken (epoch ms). */
  readonly readAt: number | null;
}

/** Options of {@link readCapacity}. */
export interface ReadCapacityOptions {
  /** A pool id or label. */
  readonly pool?: string;
  /** Judge the pool this agent runs on (`$BULLSWARM_POOL`). */
  readonly self?: boolean;
  /** The environment thresholds, caps and `BULLSWARM_POOL` are read from (default the runtime's). */
  readonly env?: SwarmEnv;
  /** A meter service to read through (default one over the runtime's store with a 300 s cache). */
  readonly meters?: MeterService;
}

/**
 * The capacity verdict of a pool (swarm-autonomy, "The capacity loop"): `ok`, `low` (free share of
 * the binding window at or below 25 %), `critical` (at or below 10 %, or rate-limited) or
 * `unknown`, from meter readings cached 300 s, lowered by an environment cap.
 *
 * Honest degradation — `unknown`, never `ok`:
 * - `self` outside a bullswarm launch (no `BULLSWARM_POOL`), or naming no declared pool;
 * - no meter (the pool is unmetered, its connector is missing, or the reading has no window);
 * - an old reader: a reading held stale after failed polls, or a manual one, older than
 *   `BULLSWARM_CAPACITY_MAX_AGE_SEC` (default 900 s).
 *
 * @throws UnknownPoolError for a `pool` that names no declared pool; SwarmInputError for bad
 *   thresholds or caps (naming the variable).
 */
export async function readCapacity(
  runtime: BullswarmRuntime,
  options: ReadCapacityOptions,
): Promise<CapacityReport> {
  const env = options.env ?? runtime.env;
  const thresholds = capacityThresholds(env);
  const caps = parseCapacityCaps(env);
  const now = runtime.clock();
  const unknown = (
    label: string,
    poolId: string | null,
    reason: string,
    meter?: PoolMeter,
  ): CapacityReport => ({
    verdict: 'unknown',
    freePct: null,
    bindingWindow: null,
    reason,
    decision: CAPACITY_DECISIONS.unknown,
    line: capacityLine({ verdict: 'unknown', freePct: null }, label),
    poolId,
    label,
    thresholds,
    cap: undefined,
    meterStatus: meter?.status ?? null,
    readAt: meter?.readAt ?? null,
  });

  let poolId: string;
  if (options.self) {
    const ref = env[BULLSWARM_POOL];
    const selfLabel = env[BULLSWARM_AGENT] || 'self';
    if (ref === undefined || ref === '') {
      return unknown(
        selfLabel,
        null,
        `outside a bullswarm launch: ${BULLSWARM_POOL} is not set, so no quota source is known`,
      );
    }
    try {
      poolId = resolvePool(runtime, ref);
    } catch (error) {
      if (!UnknownPoolError.isInstance(error)) throw error;
      return unknown(ref, null, `${BULLSWARM_POOL}=${ref} names no declared pool`);
    }
  } else {
    if (options.pool === undefined || options.pool === '') {
      throw new SwarmInputError({
        field: 'pool',
        expected: 'a pool id or label, or self inside a bullswarm launch',
      });
    }
    poolId = resolvePool(runtime, options.pool);
  }
  const label = runtime.label(poolId);
  const cap = capFor(runtime, poolId, caps);
  const meter = await readCapacityMeter(runtime, poolId, options.meters);
  if (meter.status === 'unmetered') {
    return unknown(
      label,
      poolId,
      `no quota source: the pool is unmetered${meter.meterError ? ` (${meter.meterError})` : ''}`,
      meter,
    );
  }
  const maxAgeMs = capacityMaxAgeMs(env);
  if (
    (meter.status === 'stale' || meter.status === 'manual') &&
    meter.readAt !== undefined &&
    now - meter.readAt > maxAgeMs
  ) {
    return unknown(
      label,
      poolId,
      `the ${meter.status} reading is ${Math.round((now - meter.readAt) / 1000)}s old (older than ${Math.round(maxAgeMs / 1000)}s)${meter.meterError ? `: ${meter.meterError}` : ''}`,
      meter,
    );
  }
  const reserves = runtime.state.pools.find((pool) => pool.id === poolId)?.reserves;
  const verdict: CapacityVerdict = capacityVerdict({
    meter,
    now,
    ...(reserves === undefined ? {} : { reserves }),
    lowPct: thresholds.lowPct,
    criticalPct: thresholds.criticalPct,
    ...(cap === undefined ? {} : { capPct: cap.pct }),
  });
  return {
    verdict: verdict.verdict,
    freePct: verdict.freePct,
    bindingWindow: verdict.bindingWindow,
    reason: cap === undefined ? verdict.reason : `${verdict.reason} [cap ${cap.pct}% from ${cap.variable}]`,
    decision: CAPACITY_DECISIONS[verdict.verdict],
    line: capacityLine(verdict, label),
    poolId,
    label,
    thresholds,
    cap,
    meterStatus: meter.status,
    readAt: meter.readAt ?? null,
  };
}

/**
 * A pool id from an account reference, as written on a command line, in a plan's `pools` or in a
 * cap (the spec's `@<profile>`): one leading `@` is the account sigil and is dropped, then the
 * name is a pool id (`sim:work1`), a label (`work1`), or — as the kit names accounts by profile —
 * the account name of exactly one declared pool (`work1` for `codex:work1` labelled `w1`). Only
 * declared pools resolve; an id or label wins over an account name.
 * @throws UnknownPoolError naming the ref (without its `@`) and the declared pools;
 *   SwarmInputError (`pool`) when an account name is shared by several pools (naming their ids).
 */
export function resolvePool(runtime: BullswarmRuntime, ref: string): string {
  const name = ref.startsWith('@') ? ref.slice(1) : ref;
  const direct = runtime.state.pools.find((pool) => pool.id === name);
  if (direct) return direct.id;
  try {
    return runtime.home.resolvePoolRef(name);
  } catch (error) {
    if (!UnknownPoolError.isInstance(error)) throw error;
    const byAccount = runtime.state.pools.filter((pool) => pool.account === name);
    if (byAccount.length === 1) return byAccount[0]!.id;
    if (byAccount.length > 1) {
      throw new SwarmInputError({
        field: 'pool',
        expected: `one account: the profile "${name}" is the account of ${byAccount.map((p) => p.id).join(', ')} (name one by its id or label)`,
        received: ref,
      });
    }
    throw error;
  }
}

/**
 * The cap on a pool from parsed caps (its id, label or account name — the spec's
 * `@<profile>=<pct>` — may be named; the lowest cap naming it wins). A cap naming no declared pool,
 * or an account name several pools share, is refused, naming the variable.
 */
export function capFor(
  runtime: BullswarmRuntime,
  poolId: string,
  caps: readonly CapacityCap[],
): CapacityCap | undefined {
  let lowest: CapacityCap | undefined;
  for (const cap of caps) {
    let resolved: string;
    try {
      resolved = resolvePool(runtime, cap.poolRef);
    } catch (error) {
      if (SwarmInputError.isInstance(error)) {
        throw new SwarmInputError({
          field: cap.variable,
          expected: error.expected,
          received: `@${cap.poolRef}=${cap.pct}`,
        });
      }
      if (!UnknownPoolError.isInstance(error)) throw error;
      throw new SwarmInputError({
        field: cap.variable,
        expected: `caps on declared pools (${runtime.state.pools.map((p) => `@${runtime.label(p.id)}`).join(', ')}, or an account name)`,
        received: `@${cap.poolRef}=${cap.pct}`,
      });
    }
    if (resolved === poolId && (lowest === undefined || cap.pct < lowest.pct)) lowest = cap;
  }
  return lowest;
}

/**
 * A pool's meter for capacity: through a meter service whose cache is kept 300 s, with the pool's
 * subscription override applied, as routing reads it.
 */
export async function readCapacityMeter(
  runtime: BullswarmRuntime,
  poolId: string,
  meters?: MeterService,
): Promise<PoolMeter> {
  const pool = runtime.state.pools.find((p) => p.id === poolId);
  if (!pool)
    throw new UnknownPoolError({ ref: poolId, knownPools: runtime.state.pools.map((p) => ({ id: p.id })) });
  const connector = runtime.connectors.get(pool.connector);
  if (!connector)
    return { status: 'unmetered', windows: [], meterError: `connector ${pool.connector} is not installed` };
  const account = pool.account ?? DEFAULT_ACCOUNT;
  const accountEnv = {
    ...connector.accountEnv({ account, bullswarmHome: runtime.home.home, userHome: runtime.userHome }),
    ...(pool.env ?? {}),
  };
  const source = pool.meter ?? connector.experimental_meterForAccount?.(account) ?? connector.meter;
  const service =
    meters ??
    createMeterService({
      store: await runtime.requireStore(),
      clock: runtime.clock,
      env: runtime.env,
      userHome: runtime.userHome,
      ttlMs: CAPACITY_METER_TTL_MS,
    });
  let meter = await service.readPoolMeter({ poolId, source, accountEnv, home: runtime.home.home });
  if (pool.subscription) {
    meter = applySubscriptionOverride(
      meter,
      {
        quotaWindow: pool.subscription.quotaWindow,
        ...(pool.subscription.resetsAt === undefined ? {} : { resetsAt: pool.subscription.resetsAt }),
      },
      runtime.clock(),
    );
  }
  return meter;
}
