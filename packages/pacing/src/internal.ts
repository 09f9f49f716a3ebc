/**
 * `@bullswarm/pacing/internal`: the helpers bullswarm's own packages share with the routing core —
 * reason-line formatters, input validators, constants, window and reserve arithmetic. For
 * bullswarm's packages; not a stable API (the public surface is `@bullswarm/pacing`).
 */
export { formatCapacityLine } from './capacity';
export {
  BURST_BLOCK_PCT,
  DEFAULT_BOOTSTRAP_MINUTES,
  DEFAULT_CAPACITY_CRITICAL_PCT,
  DEFAULT_CAPACITY_LOW_PCT,
  DEFAULT_INFLIGHT_PENALTY_PCT,
  DEFAULT_LANE_TIER,
  DEFAULT_MIN_WORKER_MINUTES,
  DEFAULT_WINDOW_MINUTES,
  DRAINING_FORECAST_PCT,
  FALLBACK_BOOTSTRAP_MINUTES,
  FIVE_HOUR_NEAR_LIMIT_PCT,
  FREE_STALL_FLOOR_MINUTES,
  FREE_STALL_MIN_RUNS,
  MAX_RESERVE_PCT,
  METERED_STALL_MINUTES,
  MINUTE_MS,
  MONTHLY_EXPIRING_MINUTES,
  WEEKLY_EXPIRING_MINUTES,
} from './constants';
export { describeValue, formatFieldPath } from './errors';
export { bootstrapMinutesFor, fillRecordedMinutes, median, medianOfFirst, recordedMinutes } from './estimate';
export {
  flatChargedRecords,
  type InflightCharge,
  inflightCharge,
  remainingMinutes,
  timedInflightSpend,
} from './forecast';
export {
  formatCompact,
  formatDuration,
  formatDurationMs,
  formatFixed1,
  formatPct,
  formatSurplus,
  formatTime,
  windowLabel,
} from './format';
export { isFreeModelName, isFreeTierModel } from './free-model';
export {
  effectiveWindow,
  elapsedPctOfEffective,
  findWindow,
  meterReadings,
  minutesUntilReset,
  windowElapsedPct,
} from './meter';
export {
  activeReserves,
  isValidReservePct,
  RESERVE_PCT_EXPECTED,
  reserveOf,
  spentAtPct,
  usableScale,
  usableUsedPct,
} from './reserve';
export {
  buildCandidateRow,
  checkCapable,
  checkRoute,
  checkSpent,
  classKey,
  compareCandidates,
  formatReserveClause,
  rankScore,
  sameClass,
  validatePool,
  validateRouteInput,
  validateTaskAndSettings,
} from './route';
export { noPoolKindOf } from './route/no-pool-kind';
export {
  formatAssignmentClause,
  formatBurstGatedSuffix,
  formatDrainingTrailer,
  formatEffectiveSurplus,
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
  REASON_LIST_LIMIT,
} from './route/reason-line';
