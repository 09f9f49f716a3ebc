/**
 * `@bullswarm/pacing`: the routing core's public API — the decision (`chooseRoute`), the capacity
 * verdict, pace and forecast, the stall threshold, the domain types and the errors. Everything else
 * (reason-line formatters, validators, constants, window arithmetic) is shared with bullswarm's own
 * packages through `@bullswarm/pacing/internal`, which is not a stable API (docs/architecture.md).
 */
export { type CapacityVerdict, type CapacityVerdictKind, capacityVerdict } from './capacity';
export { BullswarmError, type BullswarmErrorOptions, hasErrorMarker, InvalidInputError } from './errors';
export { type DurationEstimate, estimateDuration } from './estimate';
export { forecastWindow, type WindowForecast } from './forecast';
export { computePace, type PaceResult } from './meter';
export { computeSpendRate, type SpendRate, type SpendReading } from './rate';
export { type ChooseRouteInput, chooseRoute } from './route';
export { type StallThreshold, stallThresholdMinutes } from './stall';
export {
  type CandidateRow,
  type EffortTier,
  type ExcludedPool,
  type InflightRecord,
  LANES,
  type Lane,
  type MeterStatus,
  type MeterWindow,
  type NoPoolKind,
  type PacingWindowKind,
  type PinSource,
  type PoolMeter,
  type PoolRejection,
  type PoolSnapshot,
  type RouteDecision,
  type RouteSettings,
  type RouteTask,
  type RunSample,
  type SpendRates,
  type TaskPin,
  type TaskRoute,
  type TierModel,
  WINDOW_KINDS,
  type WindowKind,
  type WindowReserves,
} from './types';
