import {
  DRAINING_FORECAST_PCT,
  FIVE_HOUR_NEAR_LIMIT_PCT,
  MINUTE_MS,
  MONTHLY_EXPIRING_MINUTES,
  WEEKLY_EXPIRING_MINUTES,
} from '../constants';
import { bootstrapMinutesFor, estimateScratch } from '../estimate/estimate-duration';
import { fillRecordedMinutes, medianOfPrefix } from '../estimate/recorded-minutes';
import { isFreeTierModel } from '../free-model';
import { effectiveWindow } from '../meter/effective-window';
import { elapsedPctUntil } from '../meter/window-elapsed-pct';
import { usableScale } from '../reserve/window-reserve';
import type { CandidateRow, MeterWindow, PoolSnapshot, RouteSettings, RouteTask, TierModel } from '../types';
import {
  ASSIGNED,
  CandidateTable,
  DRAINING,
  EXPIRING_SOON,
  F_CANDIDATE_CHARGE,
  F_EFFECTIVE_SURPLUS,
  F_ESTIMATE_SAMPLES,
  F_EXPECTED_MINUTES,
  F_FIVE_HOUR_ELAPSED,
  F_FIVE_HOUR_RESERVE,
  F_FIVE_HOUR_USED,
  F_FORECAST_FIVE_HOUR,
  F_FORECAST_PACING,
  F_INFLIGHT,
  F_INFLIGHT_CHARGE,
  F_PACE,
  F_PACING_ELAPSED,
  F_PACING_RESERVE,
  F_PACING_RESETS_AT,
  F_PACING_USED,
  F_PROJECTED_FIVE_HOUR,
  F_RATE,
  F_RESETS_IN_MINUTES,
  F_URGENCY,
  FORECAST_OVER_LIMIT,
  FREE,
  HAS_FIVE_HOUR,
  HAS_FIVE_HOUR_RESET,
  HAS_PACING,
  HAS_PACING_RESET,
  HAS_RATE,
  MONTHLY,
  NEAR_FIVE_HOUR_LIMIT,
  RECORDED,
  URGENT,
} from './candidate-table';
import { classKeyOfFlags } from './order-candidates';

/**
 * The candidate row of one eligible pool, before ordering: `nearFiveHourPenalty` and `selectable`
 * depend on the other candidates and read `false` until `chooseRoute` orders the rows.
 *
 * Every number routing compares for one eligible pool (see the "Per-candidate numbers" of the
 * routing spec):
 * - expected minutes: `estimateDuration` at the task's tier;
 * - `inflightCharge` (as the `inflightCharge` helper): per in-flight record, pacing rate × remaining minutes when the pacing window
 *   has a measured rate and the record an expected duration, else the flat `inflightPenaltyPct`;
 * - `candidateCharge`: pacing rate × expected minutes when measured, else 0;
 * - `effectiveSurplus = (pace ?? 0) − inflightCharge − candidateCharge`;
 * - 5-hour projection and forecast at the 5-hour rate (as `forecastWindow`); `forecastOverLimit`
 *   when the forecast passes 100; `nearFiveHourLimit` at a 5-hour reading of 75 or more;
 * - `forecastPacingPct = used + rate-based in-flight charges + candidateCharge`;
 *   `draining` when it is >= 95 and above the elapsed share (a pool without a known reset has no
 *   clock to be ahead of, so it is never draining);
 * - `expiringSoon` when the pacing window resets within 24 h (weekly) or 72 h (monthly) with used
 *   below 100; `urgency = (pace ?? 0) / (minutesUntilReset / windowMinutes)`; `urgent` when
 *   expiring soon and not draining.
 *
 * A reserve `r` on a window (`pool.reserves`) shrinks it to its usable `100 − r` points, and every
 * share above is read against that part (`usableUsedPct`): for the pacing window
 * `used′ = used × 100 / (100 − r)`, `pace = elapsed − used′`, the measured rate (and so every
 * rate-based charge and the pacing forecast) scaled by `100 / (100 − r)`, `expiringSoon` while
 * `used′ < 100`; for the 5-hour window the near-limit line and the over-100% forecast compare the
 * reading × `100 / (100 − r)`. The readings themselves (`pacingUsedPct`, `fiveHourUsedPct`, the
 * 5-hour projection and forecast) stay as the meter reports them. The flat in-flight penalty is a
 * tie-breaker in points and is not scaled.
 */
export function buildCandidateRow(
  pool: PoolSnapshot,
  task: RouteTask,
  now: number,
  settings: RouteSettings,
  penaltyPct: number,
): CandidateRow {
  const table = new CandidateTable(1);
  writeCandidate(table, pool, candidateContext(task, now, settings, penaltyPct));
  return table.rowAt(0, false, false);
}

/** What every candidate of one decision shares, read once per decision. */
export interface CandidateContext {
  readonly now: number;
  readonly tier: RouteTask['tier'];
  readonly penaltyPct: number;
  /** `settings.assignments?.[tier]`. */
  readonly assignedId: string | undefined;
  /** The bootstrap estimate of the tier (`bootstrapMinutesFor`). */
  readonly bootstrapMinutes: number;
}

export function candidateContext(
  task: RouteTask,
  now: number,
  settings: RouteSettings,
  penaltyPct: number,
): CandidateContext {
  return {
    now,
    tier: task.tier,
    penaltyPct,
    assignedId: settings.assignments?.[task.tier],
    bootstrapMinutes: bootstrapMinutesFor(task.tier, settings.bootstrapMinutes),
  };
}

/**
 * {@link buildCandidateRow} into the next slot of `table` (its numbers, flags, ordering key and
 * score), without building the row: `chooseRoute` builds rows only when they are read. Returns
 * the slot.
 *
 * The same arithmetic as the spec above, in the same order, so every number is the same double;
 * written for speed, since it runs once per pool per decision: one pass over the windows and one
 * over the in-flight records, every optional number kept as a plain number beside a flag saying
 * whether it is known (a `number | null` local would cost a heap allocation per value).
 */
export function writeCandidate(table: CandidateTable, pool: PoolSnapshot, context: CandidateContext): number {
  const meter = pool.meter;
  return writeCandidateOf(
    table,
    context,
    pool.id,
    pool.label ?? pool.id,
    pool.models[context.tier],
    pool.pacingWindow,
    meter.status === 'unmetered' ? null : meter.windows,
    pool.spendRates,
    pool.reserves,
    pool.inflight,
    pool.runs,
  );
}

/**
 * {@link writeCandidate} from the pool's fields, read by the caller (`screenPool` has them at
 * hand): `windows` is null for an unmetered meter.
 */
export function writeCandidateOf(
  table: CandidateTable,
  context: CandidateContext,
  poolId: string,
  label: string,
  tierModel: TierModel | null | undefined,
  pacingWindow: PoolSnapshot['pacingWindow'],
  windows: readonly MeterWindow[] | null,
  rates: PoolSnapshot['spendRates'],
  reserves: PoolSnapshot['reserves'],
  inflight: PoolSnapshot['inflight'],
  runs: PoolSnapshot['runs'],
): number {
  const now = context.now;
  // findWindow of the pacing window and of the 5-hour window, in one pass (the first of a kind counts).
  let pacingRaw: MeterWindow | null = null;
  let fiveRaw: MeterWindow | null = null;
  if (windows !== null) {
    for (let i = 0; i < windows.length; i++) {
      const w = windows[i]!;
      if (w.kind === pacingWindow) {
        if (pacingRaw === null) pacingRaw = w;
      } else if (w.kind === 'five_hour' && fiveRaw === null) fiveRaw = w;
    }
  }

  // Optional numbers (a window's `resetsAt`, a spend rate, an in-flight record's
  // `expectedMinutes`) are read behind an `in` check, and used inside it: where some objects have
  // the property and some do not, one read site sees two object shapes, and V8 then boxes every
  // double it reads there into a new heap number (with screenPool's reads, 1.5 MB of the 2.4 MB a
  // 10,000-pool decision of the benchmark allocated); behind the check the read sees one shape and
  // the value stays a plain double.
  // `effectiveInto` does what `effectiveWindow` does, into `effective` instead of a new object.

  // The pacing window, effective at `now`. With a reserve every share of it is read against its
  // usable part.
  let pacingReservePct = 0;
  if (reserves !== undefined && reserves !== null) {
    const value = pacingWindow === 'weekly' ? reserves.weekly : reserves.monthly;
    if (value !== undefined && value !== null) pacingReservePct = value;
  }
  const pacingScale = usableScale(pacingReservePct);
  let hasPacing = false;
  let hasPacingReset = false;
  let pacingUsedPct = 0;
  let pacingWindowMinutes = 0;
  let pacingResetsAt = 0;
  if (pacingRaw !== null) {
    const reset = effectiveInto(pacingRaw, now);
    hasPacing = true;
    hasPacingReset = reset !== NO_RESET;
    pacingUsedPct = reset === RESET_PASSED ? 0 : pacingRaw.usedPct;
    pacingWindowMinutes = effective[EFFECTIVE_MINUTES]!;
    if (hasPacingReset) pacingResetsAt = effective[EFFECTIVE_RESETS_AT]!;
  }
  const pacingUsable = pacingUsedPct * pacingScale;
  const pacingElapsedPct = hasPacingReset ? elapsedPctUntil(pacingResetsAt, pacingWindowMinutes, now) : 0;
  // Known when both the elapsed share (a reset) and the used share (a reading) are.
  const pace = hasPacingReset ? pacingElapsedPct - pacingUsable : 0;

  let fiveHourReservePct = 0;
  if (reserves !== undefined && reserves !== null) {
    const value = reserves.five_hour;
    if (value !== undefined && value !== null) fiveHourReservePct = value;
  }
  const fiveScale = usableScale(fiveHourReservePct);
  let hasFive = false;
  let hasFiveReset = false;
  let fiveHourUsedPct = 0;
  let fiveHourElapsedPct = 0;
  if (fiveRaw !== null) {
    const reset = effectiveInto(fiveRaw, now);
    hasFive = true;
    hasFiveReset = reset !== NO_RESET;
    fiveHourUsedPct = reset === RESET_PASSED ? 0 : fiveRaw.usedPct;
    if (hasFiveReset) {
      fiveHourElapsedPct = elapsedPctUntil(
        effective[EFFECTIVE_RESETS_AT]!,
        effective[EFFECTIVE_MINUTES]!,
        now,
      );
    }
  }

  // estimateDuration, without its input and result objects.
  const estimateSamples = fillRecordedMinutes(runs, poolId, context.tier, estimateScratch);
  // medianOfPrefix, with its one- and two-sample cases here: a double returned from a call V8 does
  // not inline is boxed, and this function is too large for it to inline every callee.
  const expectedMinutes =
    estimateSamples === 0
      ? context.bootstrapMinutes
      : estimateSamples === 1
        ? estimateScratch[0]!
        : estimateSamples === 2
          ? (estimateScratch[0]! + estimateScratch[1]!) / 2
          : medianOfPrefix(estimateScratch, estimateSamples);

  // `rates.weekly` (or `.monthly`) and `rates.five_hour`; absent or undefined = no rate.
  let hasRate = false;
  let rate = 0;
  let hasRate5h = false;
  let rate5h = 0;
  if (typeof rates === 'object' && rates !== null) {
    if (pacingWindow === 'weekly') {
      if ('weekly' in rates) {
        const value = rates.weekly;
        if (value !== undefined) {
          hasRate = true;
          rate = value;
        }
      }
    } else if ('monthly' in rates) {
      const value = rates.monthly;
      if (value !== undefined) {
        hasRate = true;
        rate = value;
      }
    }
    if ('five_hour' in rates) {
      const value = rates.five_hour;
      if (value !== undefined) {
        hasRate5h = true;
        rate5h = value;
      }
    }
  } else {
    // Not an object (input `validatePool` would refuse): read as ever, the same TypeError for none.
    const loose = rates as PoolSnapshot['spendRates'];
    const value = pacingWindow === 'weekly' ? loose.weekly : loose.monthly;
    if (value !== undefined) {
      hasRate = true;
      rate = value;
    }
    const value5h = loose.five_hour;
    if (value5h !== undefined) {
      hasRate5h = true;
      rate5h = value5h;
    }
  }
  // The measured rate in points of the usable part of the pacing window.
  const usableRate = rate * pacingScale;
  // One pass for both rate-based charges (timedInflightSpend at each rate: the same sums in the
  // same order) and the records charged the flat penalty (flatChargedRecords).
  let rateCharge = 0;
  let fiveHourInflightSpend = 0;
  let untimed = 0;
  for (let i = 0; i < inflight.length; i++) {
    const record = inflight[i]!;
    if (typeof record === 'object' && record !== null && !('expectedMinutes' in record)) {
      untimed++;
      continue;
    }
    const expected = record.expectedMinutes;
    if (expected === undefined) {
      untimed++;
      continue;
    }
    const remaining = Math.max(0, expected - (now - record.startedAt) / MINUTE_MS);
    rateCharge += usableRate * remaining;
    fiveHourInflightSpend += rate5h * remaining;
  }
  if (!hasRate) rateCharge = 0;
  const inflightCharge = rateCharge + (hasRate ? untimed : inflight.length) * context.penaltyPct;
  const candidateCharge = hasRate ? usableRate * expectedMinutes : 0;
  const effectiveSurplus = pace - inflightCharge - candidateCharge;

  const projectedFiveHourPct = hasRate5h ? fiveHourUsedPct + fiveHourInflightSpend : fiveHourUsedPct;
  const forecastFiveHourPct = hasRate5h
    ? projectedFiveHourPct + rate5h * expectedMinutes
    : projectedFiveHourPct;

  const forecastPacingPct = pacingUsable + rateCharge + candidateCharge;
  const draining =
    hasPacing &&
    hasPacingReset &&
    forecastPacingPct >= DRAINING_FORECAST_PCT &&
    forecastPacingPct > pacingElapsedPct;
  const resetsInMinutes = (pacingResetsAt - now) / MINUTE_MS;
  const expiringWithin = pacingWindow === 'weekly' ? WEEKLY_EXPIRING_MINUTES : MONTHLY_EXPIRING_MINUTES;
  const expiringSoon = hasPacingReset && resetsInMinutes <= expiringWithin && hasPacing && pacingUsable < 100;
  const urgent = expiringSoon && !draining;

  const slot = table.claim(poolId, label, tierModel?.model ?? null);
  const n = table.numbers;
  const o = table.offset(slot);
  let flags = 0;
  if (hasPacing) {
    flags |= HAS_PACING;
    n[o + F_PACING_USED] = pacingUsedPct;
    n[o + F_FORECAST_PACING] = forecastPacingPct;
  }
  if (hasPacingReset) {
    flags |= HAS_PACING_RESET;
    n[o + F_PACE] = pace;
    n[o + F_PACING_ELAPSED] = pacingElapsedPct;
    n[o + F_PACING_RESETS_AT] = pacingResetsAt;
    n[o + F_RESETS_IN_MINUTES] = resetsInMinutes;
  }
  if (hasFive) {
    flags |= HAS_FIVE_HOUR;
    n[o + F_FIVE_HOUR_USED] = fiveHourUsedPct;
    n[o + F_PROJECTED_FIVE_HOUR] = projectedFiveHourPct;
    n[o + F_FORECAST_FIVE_HOUR] = forecastFiveHourPct;
    if (hasFiveReset) {
      flags |= HAS_FIVE_HOUR_RESET;
      n[o + F_FIVE_HOUR_ELAPSED] = fiveHourElapsedPct;
    }
    if (fiveHourUsedPct * fiveScale >= FIVE_HOUR_NEAR_LIMIT_PCT) flags |= NEAR_FIVE_HOUR_LIMIT;
    if (forecastFiveHourPct * fiveScale > 100) flags |= FORECAST_OVER_LIMIT;
  }
  if (hasRate) {
    flags |= HAS_RATE;
    n[o + F_RATE] = rate;
  }
  if (estimateSamples > 0) flags |= RECORDED;
  let score = effectiveSurplus;
  if (expiringSoon) {
    flags |= EXPIRING_SOON;
    // urgency = surplus / fraction of the pacing window left.
    const urgency = pace / (resetsInMinutes / pacingWindowMinutes);
    n[o + F_URGENCY] = urgency;
    // Key 7 (rankScore): urgency for an urgent pool.
    if (urgent) score = urgency;
  }
  if (draining) flags |= DRAINING;
  if (urgent) flags |= URGENT;
  if (isFreeTierModel(tierModel)) flags |= FREE;
  if (context.assignedId === poolId) flags |= ASSIGNED;
  if (pacingWindow === 'monthly') flags |= MONTHLY;
  n[o + F_EFFECTIVE_SURPLUS] = effectiveSurplus;
  n[o + F_INFLIGHT] = inflight.length;
  n[o + F_INFLIGHT_CHARGE] = inflightCharge;
  n[o + F_EXPECTED_MINUTES] = expectedMinutes;
  n[o + F_ESTIMATE_SAMPLES] = estimateSamples;
  n[o + F_PACING_RESERVE] = pacingReservePct;
  n[o + F_FIVE_HOUR_RESERVE] = fiveHourReservePct;
  n[o + F_CANDIDATE_CHARGE] = candidateCharge;
  table.flags[slot] = flags;
  table.keys[slot] = classKeyOfFlags(flags);
  table.scores[slot] = score;
  return slot;
}

// What `effectiveInto` found: no known reset, a reset still ahead, or one that has passed (the
// window reads 0% used); the effective resets-at and the window's minutes are in `effective`.
const NO_RESET = 0;
const RESET_AHEAD = 1;
const RESET_PASSED = 2;
const EFFECTIVE_RESETS_AT = 0;
const EFFECTIVE_MINUTES = 1;
const effective = new Float64Array(2);

/**
 * `effectiveWindow(w, now)` without the object it returns: the window's reset (and minutes) into
 * {@link effective}, and whether it is unknown, ahead or passed. Throws where `effectiveWindow`
 * does (it calls it then). Every value read here is only ever used as a number.
 */
function effectiveInto(w: MeterWindow, now: number): number {
  const windowMinutes = w.windowMinutes;
  effective[EFFECTIVE_MINUTES] = windowMinutes;
  if (!('resetsAt' in w)) return NO_RESET;
  const resetsAt = w.resetsAt;
  if (resetsAt === undefined) return NO_RESET;
  if (resetsAt > now) {
    effective[EFFECTIVE_RESETS_AT] = resetsAt;
    return RESET_AHEAD;
  }
  // The window has reset: effectiveWindow's arithmetic (or its InvalidInputError).
  if (!(Number.isFinite(windowMinutes) && windowMinutes > 0)) effectiveWindow(w, now);
  const lengthMs = windowMinutes * MINUTE_MS;
  const periods = Math.floor((now - resetsAt) / lengthMs) + 1;
  effective[EFFECTIVE_RESETS_AT] = resetsAt + periods * lengthMs;
  return RESET_PASSED;
}
