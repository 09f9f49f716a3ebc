import { InvalidInputError } from '../errors/invalid-input-error';
import { isValidReservePct, RESERVE_PCT_EXPECTED } from '../reserve/window-reserve';
import {
  LANES,
  type PoolSnapshot,
  type RouteSettings,
  type RouteTask,
  WINDOW_KINDS,
  type WindowKind,
} from '../types';
import { PoolIdSet } from './pool-id-set';

const METER_STATUSES = ['live', 'cache', 'stale', 'manual', 'unmetered'];

const TASK_KINDS = ['single-run', 'workflow-step'];
const PIN_SOURCES = ['operator', 'step-restart', 'gate-retry'];

/**
 * Rejects input no decision can be made from, naming the field and what would be valid:
 * a non-finite `now`, an unknown lane or task kind, an empty tier, a missing or duplicate pool id
 * (ids must be unique, or the pick would depend on input order), a window with a non-finite
 * reading or a non-positive length, a negative or non-finite spend rate or in-flight estimate, and
 * a negative or non-finite `inflightPenaltyPct`, and a reserve outside 0–90 (whole or one decimal)
 * or on something that is not a window kind. The shapes are checked too, for callers in plain
 * JavaScript: a missing or mistyped object, array or flag names its field instead of failing later
 * with a bare TypeError.
 *
 * @throws InvalidInputError
 */
export function validateRouteInput(input: {
  readonly pools: readonly PoolSnapshot[];
  readonly task: RouteTask;
  readonly now: number;
  readonly settings?: RouteSettings;
}): void {
  validateInputObject(input);
  const { pools, task, now, settings } = input;
  validateTaskAndSettings(task, now, settings);
  if (!Array.isArray(pools)) fail('pools', 'an array of pool snapshots', pools);
  const seen = new PoolIdSet(pools.length);
  for (let i = 0; i < pools.length; i++) validatePool(pools[i]!, i, seen);
}

/**
 * The input itself must be an object (`{ pools, task, now }`).
 *
 * @throws InvalidInputError
 */
export function validateInputObject(input: unknown): void {
  if (!isObject(input)) fail('input', 'an object { pools, task, now, settings? }', input);
}

/**
 * The task and settings part of {@link validateRouteInput}.
 *
 * @throws InvalidInputError
 */
export function validateTaskAndSettings(
  task: RouteTask,
  now: number,
  settings: RouteSettings | undefined,
): void {
  if (!Number.isFinite(now)) fail('now', 'a finite epoch-ms number', now);
  if (!isObject(task)) fail('task', 'an object { lane, tier, kind }', task);
  if (!LANES.includes(task.lane)) fail('task.lane', `one of ${LANES.join(', ')}`, task.lane);
  if (typeof task.tier !== 'string' || task.tier === '')
    fail('task.tier', 'a non-empty effort tier', task.tier);
  if (!TASK_KINDS.includes(task.kind)) fail('task.kind', TASK_KINDS.join(' or '), task.kind);
  if (task.capabilities !== undefined) checkStrings('task.capabilities', task.capabilities);
  if (task.route !== undefined) validateRoute(task.route);
  if (task.excludedPools !== undefined) {
    if (!Array.isArray(task.excludedPools)) {
      fail('task.excludedPools', 'an array of { poolId, reason }', task.excludedPools);
    }
    task.excludedPools.forEach((entry, i) => {
      if (!isObject(entry) || typeof entry.poolId !== 'string' || typeof entry.reason !== 'string') {
        fail(`task.excludedPools[${i}]`, 'an object { poolId: string, reason: string }', entry);
      }
      if (entry.evenPinned !== undefined && typeof entry.evenPinned !== 'boolean') {
        fail(`task.excludedPools[${i}].evenPinned`, 'true, false or absent', entry.evenPinned);
      }
    });
  }
  if (task.pin !== undefined) {
    if (typeof task.pin.poolId !== 'string' || task.pin.poolId === '') {
      fail('task.pin.poolId', 'a pool id', task.pin.poolId);
    }
    if (!PIN_SOURCES.includes(task.pin.source)) {
      fail('task.pin.source', PIN_SOURCES.join(', '), task.pin.source);
    }
    if (
      task.pin.shownAs !== undefined &&
      (typeof task.pin.shownAs !== 'string' || task.pin.shownAs.trim() === '')
    ) {
      fail('task.pin.shownAs', 'a non-empty string', task.pin.shownAs);
    }
  }
  const penalty = settings?.inflightPenaltyPct;
  if (penalty !== undefined && !(Number.isFinite(penalty) && penalty >= 0)) {
    fail(
      'settings.inflightPenaltyPct',
      'a number of points at or above 0 (0 turns the flat charge off)',
      penalty,
    );
  }
}

/**
 * The per-pool part of {@link validateRouteInput}; `seen` collects the ids checked so far.
 * It runs once per pool per decision: plain comparisons and named reads, no array searches or
 * iterators.
 *
 * @throws InvalidInputError
 */
export function validatePool(pool: PoolSnapshot, i: number, seen: PoolIdSet): void {
  if (!isObject(pool)) fail(`pools[${i}]`, 'a pool snapshot object', pool);
  if (typeof pool.id !== 'string' || pool.id === '') fail(`pools[${i}].id`, 'a non-empty pool id', pool.id);
  if (!seen.add(pool.id)) fail(`pools[${i}].id`, 'an id no other pool in the list has', pool.id);
  if (typeof pool.enabled !== 'boolean') fail(`pools[${i}].enabled`, 'true or false', pool.enabled);
  if (!Array.isArray(pool.lanes))
    fail(`pools[${i}].lanes`, `an array of lanes (${LANES.join(', ')})`, pool.lanes);
  if (!Array.isArray(pool.capabilities)) {
    fail(`pools[${i}].capabilities`, 'an array of capability names', pool.capabilities);
  }
  if (!isObject(pool.models)) fail(`pools[${i}].models`, 'an object of tier → model (or null)', pool.models);
  if (pool.pacingWindow !== 'weekly' && pool.pacingWindow !== 'monthly') {
    fail(`pools[${i}].pacingWindow`, 'weekly or monthly', pool.pacingWindow);
  }
  const meter = pool.meter;
  if (!isObject(meter)) fail(`pools[${i}].meter`, 'an object { status, windows }', meter);
  if (!isMeterStatus(meter.status)) {
    fail(`pools[${i}].meter.status`, METER_STATUSES.join(', '), meter.status);
  }
  const windows = meter.windows;
  if (!Array.isArray(windows)) fail(`pools[${i}].meter.windows`, 'an array of meter windows', windows);
  for (let j = 0; j < windows.length; j++) {
    const w = windows[j]!;
    if (!isObject(w) || !isWindowKind(w.kind)) {
      fail(`pools[${i}].meter.windows[${j}].kind`, WINDOW_KINDS.join(', '), isObject(w) ? w.kind : w);
    }
    if (!(Number.isFinite(w.usedPct) && w.usedPct >= 0))
      fail(`pools[${i}].meter.windows[${j}].usedPct`, 'a finite percentage at or above 0', w.usedPct);
    if (!(Number.isFinite(w.windowMinutes) && w.windowMinutes > 0)) {
      fail(
        `pools[${i}].meter.windows[${j}].windowMinutes`,
        'a positive number of minutes (300, 10080, or the month length)',
        w.windowMinutes,
      );
    }
    if (w.resetsAt !== undefined && !Number.isFinite(w.resetsAt)) {
      fail(`pools[${i}].meter.windows[${j}].resetsAt`, 'a finite epoch-ms number or undefined', w.resetsAt);
    }
  }
  if (!isObject(pool.spendRates)) {
    fail(
      `pools[${i}].spendRates`,
      'an object of window kind → points per worker-minute ({} when none)',
      pool.spendRates,
    );
  }
  // WINDOW_KINDS in order, read by name.
  const rates = pool.spendRates;
  checkRate(rates.five_hour, i, 'five_hour');
  checkRate(rates.weekly, i, 'weekly');
  checkRate(rates.monthly, i, 'monthly');
  if (pool.reserves !== undefined) {
    if (!isObject(pool.reserves)) {
      fail(`pools[${i}].reserves`, 'an object of window kind → reserve points, or absent', pool.reserves);
    }
    for (const [kind, value] of Object.entries(pool.reserves)) {
      if (!WINDOW_KINDS.includes(kind as WindowKind)) {
        fail(`pools[${i}].reserves`, `window kinds only (${WINDOW_KINDS.join(', ')})`, kind);
      }
      if (value !== undefined && !isValidReservePct(value)) {
        fail(`pools[${i}].reserves.${kind}`, RESERVE_PCT_EXPECTED, value);
      }
    }
  }
  const inflight = pool.inflight;
  if (!Array.isArray(inflight))
    fail(`pools[${i}].inflight`, 'an array of in-flight records ([] when none)', inflight);
  if (!Array.isArray(pool.runs))
    fail(`pools[${i}].runs`, 'an array of recorded runs ([] when none)', pool.runs);
  for (let j = 0; j < inflight.length; j++) {
    const record = inflight[j]!;
    if (!Number.isFinite(record.startedAt)) {
      fail(`pools[${i}].inflight[${j}].startedAt`, 'a finite epoch-ms number', record.startedAt);
    }
    const expected = record.expectedMinutes;
    if (expected !== undefined && !(Number.isFinite(expected) && expected >= 0)) {
      fail(`pools[${i}].inflight[${j}].expectedMinutes`, 'minutes at or above 0, or undefined', expected);
    }
  }
}

function checkRate(rate: number | undefined, i: number, kind: WindowKind): void {
  if (rate !== undefined && !(Number.isFinite(rate) && rate >= 0)) {
    fail(`pools[${i}].spendRates.${kind}`, 'points per worker-minute at or above 0, or absent', rate);
  }
}

/** `METER_STATUSES.includes(status)`, without the search. */
function isMeterStatus(status: unknown): boolean {
  return (
    status === 'live' ||
    status === 'cache' ||
    status === 'stale' ||
    status === 'manual' ||
    status === 'unmetered'
  );
}

/** `WINDOW_KINDS.includes(kind)`, without the search. */
function isWindowKind(kind: unknown): boolean {
  return kind === 'five_hour' || kind === 'weekly' || kind === 'monthly';
}

function validateRoute(route: NonNullable<RouteTask['route']>): void {
  if (!isObject(route)) fail('task.route', 'an object { providers?, pools?, independentOf? }', route);
  for (const part of ['providers', 'pools'] as const) {
    const filter = route[part];
    if (filter === undefined) continue;
    if (!isObject(filter)) fail(`task.route.${part}`, 'an object { use?, avoid? }', filter);
    if (filter.use !== undefined) checkStrings(`task.route.${part}.use`, filter.use);
    if (filter.avoid !== undefined) checkStrings(`task.route.${part}.avoid`, filter.avoid);
  }
  if (route.independentOf !== undefined) {
    if (!Array.isArray(route.independentOf)) {
      fail('task.route.independentOf', 'an array of { step, providerFamilies }', route.independentOf);
    }
    route.independentOf.forEach((entry, i) => {
      if (!isObject(entry) || typeof entry.step !== 'string') {
        fail(
          `task.route.independentOf[${i}]`,
          'an object { step: string, providerFamilies: string[] }',
          entry,
        );
      }
      checkStrings(`task.route.independentOf[${i}].providerFamilies`, entry.providerFamilies);
    });
  }
}

function checkStrings(field: string, value: unknown): void {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    fail(field, 'an array of strings', value);
  }
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(field: string, expected: string, received: unknown): never {
  throw new InvalidInputError({ field, expected, received });
}
