// The routing decision as it was before the single-scan pick (issue 14), kept verbatim as the
// oracle of src/route/choose-route.reference.test.ts: every eligible pool's row built eagerly and
// every row sorted with the comparator. Test-only (excluded from the build); do not optimise it.
import {
  DRAINING_FORECAST_PCT,
  FIVE_HOUR_NEAR_LIMIT_PCT,
  MINUTE_MS,
  MONTHLY_EXPIRING_MINUTES,
  WEEKLY_EXPIRING_MINUTES,
} from '../../constants';
import { bootstrapMinutesFor, estimateScratch } from '../../estimate/estimate-duration';
import { fillRecordedMinutes, medianOfFirst } from '../../estimate/recorded-minutes';
import { flatChargedRecords, timedInflightSpend } from '../../forecast/remaining-minutes';
import { isFreeTierModel } from '../../free-model';
import { effectiveWindow } from '../../meter/effective-window';
import { findWindow } from '../../meter/find-window';
import { elapsedPctOfEffective } from '../../meter/window-elapsed-pct';
import { reserveOf, usableScale } from '../../reserve/window-reserve';
import type { CandidateRow, PoolSnapshot, RouteSettings, RouteTask } from '../../types';

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
  const tierModel = pool.models[task.tier];
  // Plain locals and allocation-free helpers: this runs once per pool per decision.
  const pacingRaw = findWindow(pool.meter, pool.pacingWindow);
  const pacing = pacingRaw === null ? null : effectiveWindow(pacingRaw, now);
  const pacingUsedPct = pacing === null ? null : pacing.usedPct;
  // With a reserve every share of the pacing window is read against its usable part.
  const pacingReservePct = reserveOf(pool, pool.pacingWindow);
  const pacingScale = usableScale(pacingReservePct);
  const pacingUsable = pacingUsedPct === null ? null : pacingUsedPct * pacingScale;
  const pacingElapsedPct = pacing === null ? null : elapsedPctOfEffective(pacing, now);
  const pace = pacingElapsedPct === null || pacingUsable === null ? null : pacingElapsedPct - pacingUsable;
  const fiveRaw = findWindow(pool.meter, 'five_hour');
  const five = fiveRaw === null ? null : effectiveWindow(fiveRaw, now);
  const fiveHourUsedPct = five === null ? null : five.usedPct;
  const fiveHourReservePct = reserveOf(pool, 'five_hour');
  const fiveScale = usableScale(fiveHourReservePct);
  // estimateDuration, without its input and result objects.
  const estimateSamples = fillRecordedMinutes(pool.runs, pool.id, task.tier, estimateScratch);
  const recordedP50 = medianOfFirst(estimateScratch, estimateSamples);
  const expectedMinutes = recordedP50 ?? bootstrapMinutesFor(task.tier, settings.bootstrapMinutes);

  const rate = pool.spendRates[pool.pacingWindow] ?? null;
  // The measured rate in points of the usable part of the pacing window.
  const usableRate = rate === null ? null : rate * pacingScale;
  const rateCharge = usableRate === null ? 0 : timedInflightSpend(pool.inflight, usableRate, now);
  const inflightCharge = rateCharge + flatChargedRecords(pool.inflight, rate) * penaltyPct;
  const candidateCharge = usableRate === null ? 0 : usableRate * expectedMinutes;
  const effectiveSurplus = (pace ?? 0) - inflightCharge - candidateCharge;

  const rate5h = pool.spendRates.five_hour ?? null;
  const projectedFiveHourPct =
    fiveHourUsedPct === null || rate5h === null
      ? fiveHourUsedPct
      : fiveHourUsedPct + timedInflightSpend(pool.inflight, rate5h, now);
  const forecastFiveHourPct =
    projectedFiveHourPct === null || rate5h === null
      ? projectedFiveHourPct
      : projectedFiveHourPct + rate5h * expectedMinutes;

  const forecastPacingPct = pacingUsable === null ? null : pacingUsable + rateCharge + candidateCharge;
  const draining =
    forecastPacingPct !== null &&
    pacingElapsedPct !== null &&
    forecastPacingPct >= DRAINING_FORECAST_PCT &&
    forecastPacingPct > pacingElapsedPct;
  const pacingResetsAt = pacing?.resetsAt ?? null;
  const resetsInMinutes = pacingResetsAt === null ? null : (pacingResetsAt - now) / MINUTE_MS;
  const expiringWithin = pool.pacingWindow === 'weekly' ? WEEKLY_EXPIRING_MINUTES : MONTHLY_EXPIRING_MINUTES;
  const expiringSoon =
    resetsInMinutes !== null &&
    resetsInMinutes <= expiringWithin &&
    pacingUsable !== null &&
    pacingUsable < 100;
  const urgency =
    expiringSoon && pacing !== null ? (pace ?? 0) / (resetsInMinutes! / pacing.windowMinutes) : null;

  return {
    poolId: pool.id,
    poolLabel: pool.label ?? pool.id,
    pace,
    effectiveSurplus,
    inflight: pool.inflight.length,
    inflightCharge,
    projectedFiveHourPct,
    forecastFiveHourPct,
    ratePerMinute: rate,
    expectedMinutes,
    estimateSource: recordedP50 === null ? 'bootstrap' : 'recorded',
    estimateSamples,
    nearFiveHourLimit: fiveHourUsedPct !== null && fiveHourUsedPct * fiveScale >= FIVE_HOUR_NEAR_LIMIT_PCT,
    nearFiveHourPenalty: false,
    forecastOverLimit: forecastFiveHourPct !== null && forecastFiveHourPct * fiveScale > 100,
    forecastGated: false,
    free: isFreeTierModel(tierModel),
    model: tierModel?.model ?? null,
    expiringSoon,
    urgency,
    resetsInMinutes,
    forecastPacingPct,
    pacingElapsedPct,
    draining,
    assigned: settings.assignments?.[task.tier] === pool.id,
    urgent: expiringSoon && !draining,
    pacingWindow: pool.pacingWindow,
    pacingUsedPct,
    pacingReservePct,
    fiveHourReservePct,
    fiveHourUsedPct,
    fiveHourElapsedPct: five === null ? null : elapsedPctOfEffective(five, now),
    candidateCharge,
    pacingResetsAt,
    selectable: false,
  };
}
