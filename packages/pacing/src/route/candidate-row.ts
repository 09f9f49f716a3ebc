import {
  DRAINING_FORECAST_PCT,
  FIVE_HOUR_NEAR_LIMIT_PCT,
  MINUTE_MS,
  MONTHLY_EXPIRING_MINUTES,
  WEEKLY_EXPIRING_MINUTES,
} from '../constants';
import { estimateDuration } from '../estimate/estimate-duration';
import { forecastWindow } from '../forecast/forecast-window';
import { inflightCharge } from '../forecast/inflight-charge';
import { isFreeTierModel } from '../free-model';
import { computePace } from '../meter/compute-pace';
import { effectiveWindow } from '../meter/effective-window';
import { findWindow } from '../meter/find-window';
import { windowElapsedPct } from '../meter/window-elapsed-pct';
import type { CandidateRow, PoolSnapshot, RouteSettings, RouteTask } from '../types';

/** A candidate row before ordering: `nearFiveHourPenalty` and `selectable` are set by the order. */
export type UnorderedRow = Omit<CandidateRow, 'nearFiveHourPenalty' | 'selectable'>;

/**
 * Every number routing compares for one eligible pool (see the "Per-candidate numbers" of the
 * routing spec):
 * - expected minutes: {@link estimateDuration} at the task's tier;
 * - `inflightCharge`: per in-flight record, pacing rate × remaining minutes when the pacing window
 *   has a measured rate and the record an expected duration, else the flat `inflightPenaltyPct`;
 * - `candidateCharge`: pacing rate × expected minutes when measured, else 0;
 * - `effectiveSurplus = (pace ?? 0) − inflightCharge − candidateCharge`;
 * - 5-hour projection and forecast at the 5-hour rate ({@link forecastWindow}); `forecastOverLimit`
 *   when the forecast passes 100; `nearFiveHourLimit` at a 5-hour reading of 75 or more;
 * - `forecastPacingPct = used + rate-based in-flight charges + candidateCharge`;
 *   `draining` when it is >= 95 and above the elapsed share (a pool without a known reset has no
 *   clock to be ahead of, so it is never draining);
 * - `expiringSoon` when the pacing window resets within 24 h (weekly) or 72 h (monthly) with used
 *   below 100; `urgency = (pace ?? 0) / (minutesUntilReset / windowMinutes)`; `urgent` when
 *   expiring soon and not draining.
 */
export function buildCandidateRow(
  pool: PoolSnapshot,
  task: RouteTask,
  now: number,
  settings: RouteSettings,
  penaltyPct: number,
): UnorderedRow {
  const tierModel = pool.models[task.tier];
  const paced = computePace(pool, now);
  const fiveRaw = findWindow(pool.meter, 'five_hour');
  const five = fiveRaw === null ? null : effectiveWindow(fiveRaw, now);
  const fiveHourUsedPct = five === null ? null : five.usedPct;
  const estimate = estimateDuration({
    runs: pool.runs,
    poolId: pool.id,
    tier: task.tier,
    ...(settings.bootstrapMinutes === undefined ? {} : { bootstrapMinutes: settings.bootstrapMinutes }),
  });
  const rate = pool.spendRates[pool.pacingWindow] ?? null;
  const charge = inflightCharge({ inflight: pool.inflight, ratePerMinute: rate, penaltyPct, now });
  const candidateCharge = rate === null ? 0 : rate * estimate.minutes;
  const effectiveSurplus = (paced.pace ?? 0) - charge.total - candidateCharge;
  const fiveForecast = forecastWindow({
    usedPct: fiveHourUsedPct,
    ratePerMinute: pool.spendRates.five_hour ?? null,
    inflight: pool.inflight,
    candidateMinutes: estimate.minutes,
    now,
  });
  const forecastPacingPct =
    paced.usedPct === null ? null : paced.usedPct + charge.rateBased + candidateCharge;
  const draining =
    forecastPacingPct !== null &&
    paced.elapsedPct !== null &&
    forecastPacingPct >= DRAINING_FORECAST_PCT &&
    forecastPacingPct > paced.elapsedPct;
  const pacingResetsAt = paced.window?.resetsAt ?? null;
  const resetsInMinutes = pacingResetsAt === null ? null : (pacingResetsAt - now) / MINUTE_MS;
  const expiringWithin = pool.pacingWindow === 'weekly' ? WEEKLY_EXPIRING_MINUTES : MONTHLY_EXPIRING_MINUTES;
  const expiringSoon =
    resetsInMinutes !== null &&
    resetsInMinutes <= expiringWithin &&
    paced.usedPct !== null &&
    paced.usedPct < 100;
  const urgency =
    expiringSoon && paced.window !== null
      ? (paced.pace ?? 0) / (resetsInMinutes! / paced.window.windowMinutes)
      : null;

  return {
    poolId: pool.id,
    poolLabel: pool.label ?? pool.id,
    pace: paced.pace,
    effectiveSurplus,
    inflight: pool.inflight.length,
    inflightCharge: charge.total,
    projectedFiveHourPct: fiveForecast.projectedPct,
    forecastFiveHourPct: fiveForecast.forecastPct,
    ratePerMinute: rate,
    expectedMinutes: estimate.minutes,
    estimateSource: estimate.source,
    estimateSamples: estimate.samples,
    nearFiveHourLimit: fiveHourUsedPct !== null && fiveHourUsedPct >= FIVE_HOUR_NEAR_LIMIT_PCT,
    forecastOverLimit: fiveForecast.forecastPct !== null && fiveForecast.forecastPct > 100,
    forecastGated: false,
    free: isFreeTierModel(tierModel),
    model: tierModel?.model ?? null,
    expiringSoon,
    urgency,
    resetsInMinutes,
    forecastPacingPct,
    pacingElapsedPct: paced.elapsedPct,
    draining,
    assigned: settings.assignments?.[task.tier] === pool.id,
    urgent: expiringSoon && !draining,
    pacingWindow: pool.pacingWindow,
    pacingUsedPct: paced.usedPct,
    fiveHourUsedPct,
    fiveHourElapsedPct: five === null ? null : windowElapsedPct(five, now),
    candidateCharge,
    pacingResetsAt,
  };
}
