import type { PoolSnapshot, RouteTask } from '../types';
import { type CandidateContext, writeCandidateOf } from './candidate-row';
import type { CandidateTable } from './candidate-table';
import { checkRoute } from './pool-eligibility';
import type { PoolIdSet } from './pool-id-set';

/** {@link screenPool}: the pool needs the general path, validation included (nothing was recorded). */
export const SCREEN_GENERAL = -1;
/** {@link screenPool}: valid (its id is in `seen`), but the eligibility checks must run on it. */
export const SCREEN_CHECK = -2;

/**
 * The per-pool step of `chooseRoute`'s pass over the pools: `validatePool`, the eligibility checks
 * and `writeCandidate` in one read of the pool, for the usual pool. Returns its slot in `table`
 * when it is a candidate, else:
 *
 * - {@link SCREEN_CHECK}: it passes validation (its id is added to `seen`) but may be rejected:
 *   it is disabled, lacks the lane, a required capability or a model for the tier, the task's
 *   route would leave it out, `excluded` names it, or a window it reports reads 100% or more.
 *   Nothing is written: the general checks (and `writeCandidate`, if it passes) decide it.
 * - {@link SCREEN_GENERAL}: anything else — a check of `validatePool` fails, the id is a duplicate,
 *   or the pool keeps a reserve. Nothing is recorded (not even its id): `validatePool` then runs and
 *   throws exactly as it would have (or validates the reserve), and the general checks follow.
 *
 * So a slot is returned only for a pool `checkCapable`, `checkRoute`, the exclusion and
 * `checkSpent` would all pass (without a reserve a window below 100% is never spent, and a window's
 * effective reading is never above its raw one), written as `writeCandidate` writes it. It never
 * throws.
 */
export function screenPool(
  pool: PoolSnapshot,
  seen: PoolIdSet,
  table: CandidateTable,
  context: CandidateContext,
  task: RouteTask,
  excluded: ReadonlyMap<string, string> | null,
): number {
  const tier = context.tier;
  if (typeof pool !== 'object' || pool === null || Array.isArray(pool)) return SCREEN_GENERAL;
  const id = pool.id;
  const enabled = pool.enabled;
  const lanes = pool.lanes;
  const capabilities = pool.capabilities;
  const models = pool.models;
  const pacingWindow = pool.pacingWindow;
  const meter = pool.meter;
  const rates = pool.spendRates;
  const inflight = pool.inflight;
  const runs = pool.runs;
  if (
    typeof id !== 'string' ||
    id === '' ||
    typeof enabled !== 'boolean' ||
    !Array.isArray(lanes) ||
    !Array.isArray(capabilities) ||
    !isPlainObject(models) ||
    (pacingWindow !== 'weekly' && pacingWindow !== 'monthly') ||
    !isPlainObject(meter) ||
    !isPlainObject(rates) ||
    pool.reserves !== undefined ||
    !Array.isArray(inflight) ||
    !Array.isArray(runs)
  ) {
    return SCREEN_GENERAL;
  }
  const status = meter.status;
  const windows = meter.windows;
  if (
    !(
      status === 'live' ||
      status === 'cache' ||
      status === 'stale' ||
      status === 'manual' ||
      status === 'unmetered'
    ) ||
    !Array.isArray(windows)
  ) {
    return SCREEN_GENERAL;
  }
  let full = false;
  for (let j = 0; j < windows.length; j++) {
    const w = windows[j];
    if (typeof w !== 'object' || w === null || Array.isArray(w)) return SCREEN_GENERAL;
    const kind = w.kind;
    const usedPct = w.usedPct;
    const windowMinutes = w.windowMinutes;
    if (
      !(kind === 'five_hour' || kind === 'weekly' || kind === 'monthly') ||
      !(Number.isFinite(usedPct) && usedPct >= 0) ||
      !(Number.isFinite(windowMinutes) && windowMinutes > 0) ||
      ('resetsAt' in w && !validResetsAt(w.resetsAt))
    ) {
      return SCREEN_GENERAL;
    }
    if (usedPct >= 100) full = true;
  }
  // Optional numbers are read behind `in` (see writeCandidateOf: no boxed doubles).
  if (
    ('five_hour' in rates && !validRate(rates.five_hour)) ||
    ('weekly' in rates && !validRate(rates.weekly)) ||
    ('monthly' in rates && !validRate(rates.monthly))
  ) {
    return SCREEN_GENERAL;
  }
  for (let j = 0; j < inflight.length; j++) {
    const record = inflight[j];
    if (typeof record !== 'object' || record === null) return SCREEN_GENERAL;
    if (
      !Number.isFinite(record.startedAt) ||
      ('expectedMinutes' in record && !validExpected(record.expectedMinutes))
    ) {
      return SCREEN_GENERAL;
    }
  }
  // Last: a duplicate is left to validatePool, which names it.
  if (!seen.add(id)) return SCREEN_GENERAL;
  if (
    !enabled ||
    !includes(lanes, task.lane) ||
    !includesAll(capabilities, task.capabilities) ||
    models[tier] == null ||
    (task.route !== undefined && checkRoute(pool, task.route) !== null) ||
    excluded?.has(id) === true ||
    (full && status !== 'unmetered')
  ) {
    return SCREEN_CHECK;
  }
  const label = pool.label;
  return writeCandidateOf(
    table,
    context,
    id,
    label ?? id,
    models[tier],
    pacingWindow,
    status === 'unmetered' ? null : windows,
    rates,
    undefined,
    inflight,
    runs,
  );
}

function validResetsAt(resetsAt: number | undefined): boolean {
  return resetsAt === undefined || Number.isFinite(resetsAt);
}

function validExpected(expected: number | undefined): boolean {
  return expected === undefined || (Number.isFinite(expected) && expected >= 0);
}

function validRate(rate: number | undefined): boolean {
  return rate === undefined || (Number.isFinite(rate) && rate >= 0);
}

function isPlainObject(value: unknown): value is Record<string, never> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every one of `required` (absent: none) is in `list`. */
function includesAll(list: readonly unknown[], required: readonly string[] | undefined): boolean {
  if (required === undefined) return true;
  for (let i = 0; i < required.length; i++) if (!includes(list, required[i]!)) return false;
  return true;
}

/** `list.includes(item)` for a string, without the builtin call. */
function includes(list: readonly unknown[], item: string): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === item) return true;
  return false;
}
