import { BURST_BLOCK_PCT } from '../constants';
import { formatCompact, formatTime, windowLabel } from '../format';
import { effectiveWindow } from '../meter/effective-window';
import { meterReadings } from '../meter/find-window';
import { spentAtPct } from '../reserve/window-reserve';
import {
  type PoolRejection,
  type PoolSnapshot,
  type RouteTask,
  type TaskRoute,
  WINDOW_KINDS,
  type WindowKind,
} from '../types';

/**
 * The hard checks no later step can override, in order: disabled → `disabled`; lane not declared
 * → `no lane <lane>`; a missing capability (the first, in task order) → `lacks capability <c>`;
 * no model for the tier → `no model for tier <tier>`. Kind `ineligible`. A pin must pass these too.
 */
export function checkCapable(pool: PoolSnapshot, task: RouteTask): PoolRejection | null {
  if (!pool.enabled) return ineligible(pool, 'disabled');
  if (!pool.lanes.includes(task.lane)) return ineligible(pool, `no lane ${task.lane}`);
  const required = task.capabilities;
  if (required !== undefined) {
    for (const capability of required) {
      if (!pool.capabilities.includes(capability)) return ineligible(pool, `lacks capability ${capability}`);
    }
  }
  if (pool.models[task.tier] == null) return ineligible(pool, `no model for tier ${task.tier}`);
  return null;
}

/**
 * A metered window (5-hour, weekly or monthly) whose effective reading is at or above 100% — or at
 * or above `100 − reserve` when the pool keeps a reserve on it (`pool.reserves`) — keeps the pool
 * out until it resets: kind `spent`, reason `at its weekly limit until <time>` (`until …` omitted
 * when the reset is unknown), or `inside its 15% weekly reserve until <time>` (with `reservePct`)
 * when that window is inside its reserve but below 100%; `backAt` = that reset. With several spent
 * windows the reason names the one with the latest reset — or, when any spent window's reset is
 * unknown, that window (the longest such), with no `backAt`: a return time is never claimed earlier
 * than it can be.
 *
 * `ignoreReserve` checks the 100% limit alone: a pin may use the reserve.
 */
export function checkSpent(
  pool: PoolSnapshot,
  now: number,
  options?: { readonly ignoreReserve?: boolean },
): PoolRejection | null {
  const readings = meterReadings(pool.meter);
  // (No `= {}` default: that would allocate an object per pool per decision.)
  const reserves = options?.ignoreReserve === true ? undefined : pool.reserves;
  // The common case allocates nothing: a window can only be spent while its raw reading is at or
  // above its line.
  let anyFull = false;
  for (let i = 0; i < readings.length; i++) {
    const raw = readings[i]!;
    if (raw.usedPct >= spentAtPct(reserves?.[raw.kind] ?? 0)) anyFull = true;
  }
  if (!anyFull) return null;
  const spent: { kind: WindowKind; resetsAt: number | undefined; usedPct: number }[] = [];
  for (const raw of readings) {
    const w = effectiveWindow(raw, now);
    if (w.usedPct >= spentAtPct(reserves?.[w.kind] ?? 0)) {
      spent.push({ kind: w.kind, resetsAt: w.resetsAt, usedPct: w.usedPct });
    }
  }
  if (spent.length === 0) return null;
  let binding = spent[0]!;
  for (const s of spent.slice(1)) if (bindsLater(s, binding)) binding = s;
  const spentWindows = WINDOW_KINDS.filter((kind) => spent.some((s) => s.kind === kind));
  const until = binding.resetsAt === undefined ? '' : ` until ${formatTime(binding.resetsAt)}`;
  const reservePct = binding.usedPct >= BURST_BLOCK_PCT ? 0 : (reserves?.[binding.kind] ?? 0);
  return {
    poolId: pool.id,
    kind: 'spent',
    reason:
      reservePct > 0
        ? `${formatReserveClause(binding.kind, reservePct)}${until}`
        : `at its ${windowLabel(binding.kind)} limit${until}`,
    ...(binding.resetsAt === undefined ? {} : { backAt: binding.resetsAt }),
    spentWindows,
    window: binding.kind,
    ...(reservePct > 0 ? { reservePct } : {}),
  };
}

/** `inside its 15% weekly reserve` (`inside its 20% 5-hour reserve`). */
export function formatReserveClause(kind: WindowKind, reservePct: number): string {
  return `inside its ${formatCompact(reservePct)}% ${windowLabel(kind)} reserve`;
}

function bindsLater(
  a: { kind: WindowKind; resetsAt: number | undefined },
  b: { kind: WindowKind; resetsAt: number | undefined },
): boolean {
  const aUnknown = a.resetsAt === undefined;
  const bUnknown = b.resetsAt === undefined;
  if (aUnknown !== bUnknown) return aUnknown;
  if (!aUnknown && a.resetsAt !== b.resetsAt) return a.resetsAt! > b.resetsAt!;
  return WINDOW_KINDS.indexOf(a.kind) > WINDOW_KINDS.indexOf(b.kind);
}

/**
 * The task's route as hard filters, in order (kind `route`):
 * - `providers.use`: the pool's provider family or connector id must be listed —
 *   `route: provider <family> not in providers.use`;
 * - `providers.avoid`: neither may be listed — `route: provider <name> in providers.avoid`;
 * - `pools.use`: the pool id must be listed — `route: not in pools.use`;
 * - `pools.avoid`: the pool id must not be listed — `route: in pools.avoid`;
 * - `independentOf`: the family must not have worked on a named upstream step —
 *   `route: independent of <step> (<family>)`.
 * An empty `use` list is treated as absent (it would otherwise reject every pool silently).
 */
export function checkRoute(pool: PoolSnapshot, route: TaskRoute | undefined): PoolRejection | null {
  if (route === undefined) return null;
  const providersUse = route.providers?.use;
  if (
    providersUse?.length &&
    !providersUse.includes(pool.providerFamily) &&
    !providersUse.includes(pool.connectorId)
  ) {
    return routed(pool, `provider ${pool.providerFamily} not in providers.use`);
  }
  const providersAvoid = route.providers?.avoid;
  if (providersAvoid?.length) {
    if (providersAvoid.includes(pool.providerFamily)) {
      return routed(pool, `provider ${pool.providerFamily} in providers.avoid`);
    }
    if (providersAvoid.includes(pool.connectorId)) {
      return routed(pool, `provider ${pool.connectorId} in providers.avoid`);
    }
  }
  const poolsUse = route.pools?.use;
  if (poolsUse?.length && !poolsUse.includes(pool.id)) return routed(pool, 'not in pools.use');
  if (route.pools?.avoid?.includes(pool.id)) return routed(pool, 'in pools.avoid');
  for (const upstream of route.independentOf ?? []) {
    if (upstream.providerFamilies.includes(pool.providerFamily)) {
      return routed(pool, `independent of ${upstream.step} (${pool.providerFamily})`);
    }
  }
  return null;
}

function ineligible(pool: PoolSnapshot, reason: string): PoolRejection {
  return { poolId: pool.id, kind: 'ineligible', reason };
}

function routed(pool: PoolSnapshot, why: string): PoolRejection {
  return { poolId: pool.id, kind: 'route', reason: `route: ${why}` };
}
