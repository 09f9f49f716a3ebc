import { InvalidInputError } from '../errors/invalid-input-error';
import { LANES, type PoolSnapshot, type RouteSettings, type RouteTask, WINDOW_KINDS } from '../types';

const TASK_KINDS = ['single-run', 'workflow-step'];
const PIN_SOURCES = ['--worker-pool', 'step restart', 'gate retry'];

/**
 * Rejects input no decision can be made from, naming the field and what would be valid:
 * a non-finite `now`, an unknown lane or task kind, an empty tier, a missing or duplicate pool id
 * (ids must be unique, or the pick would depend on input order), a window with a non-finite
 * reading or a non-positive length, a negative or non-finite spend rate or in-flight estimate, and
 * a negative or non-finite `inflightPenaltyPct`.
 *
 * @throws InvalidInputError
 */
export function validateRouteInput(input: {
  readonly pools: readonly PoolSnapshot[];
  readonly task: RouteTask;
  readonly now: number;
  readonly settings?: RouteSettings;
}): void {
  const { pools, task, now, settings } = input;
  validateTaskAndSettings(task, now, settings);
  if (!Array.isArray(pools)) fail('pools', 'an array of pool snapshots', pools);
  const seen = new Set<string>();
  for (let i = 0; i < pools.length; i++) validatePool(pools[i]!, i, seen);
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
  if (!LANES.includes(task.lane)) fail('task.lane', `one of ${LANES.join(', ')}`, task.lane);
  if (typeof task.tier !== 'string' || task.tier === '')
    fail('task.tier', 'a non-empty effort tier', task.tier);
  if (!TASK_KINDS.includes(task.kind)) fail('task.kind', TASK_KINDS.join(' or '), task.kind);
  if (task.pin !== undefined) {
    if (typeof task.pin.poolId !== 'string' || task.pin.poolId === '') {
      fail('task.pin.poolId', 'a pool id', task.pin.poolId);
    }
    if (!PIN_SOURCES.includes(task.pin.source)) {
      fail('task.pin.source', PIN_SOURCES.join(', '), task.pin.source);
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
 *
 * @throws InvalidInputError
 */
export function validatePool(pool: PoolSnapshot, i: number, seen: Set<string>): void {
  if (typeof pool.id !== 'string' || pool.id === '') fail(`pools[${i}].id`, 'a non-empty pool id', pool.id);
  if (seen.has(pool.id)) fail(`pools[${i}].id`, 'an id no other pool in the list has', pool.id);
  seen.add(pool.id);
  if (pool.pacingWindow !== 'weekly' && pool.pacingWindow !== 'monthly') {
    fail(`pools[${i}].pacingWindow`, 'weekly or monthly', pool.pacingWindow);
  }
  const windows = pool.meter.windows;
  for (let j = 0; j < windows.length; j++) {
    const w = windows[j]!;
    if (!Number.isFinite(w.usedPct))
      fail(`pools[${i}].meter.windows[${j}].usedPct`, 'a finite percentage', w.usedPct);
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
  for (const kind of WINDOW_KINDS) {
    const rate = pool.spendRates[kind];
    if (rate !== undefined && !(Number.isFinite(rate) && rate >= 0)) {
      fail(`pools[${i}].spendRates.${kind}`, 'points per worker-minute at or above 0, or absent', rate);
    }
  }
  const inflight = pool.inflight;
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

function fail(field: string, expected: string, received: unknown): never {
  throw new InvalidInputError({ field, expected, received });
}
