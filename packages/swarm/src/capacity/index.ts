export {
  CAPACITY_ACTIONS,
  CAPACITY_DECISIONS,
  type CapacityDecision,
  capacityLine,
} from './capacity-decision';
export {
  BULLSWARM_CAPACITY_MAX_AGE_SEC,
  CAPACITY_CAP_VARS,
  CAPACITY_CRITICAL_VARS,
  CAPACITY_LOW_VARS,
  CAPACITY_METER_TTL_MS,
  type CapacityCap,
  type CapacityThresholds,
  capacityMaxAgeMs,
  capacityThresholds,
  DEFAULT_CAPACITY_MAX_AGE_SEC,
  parseCapacityCaps,
} from './capacity-env';
export { type CheckCapacityOptions, checkCapacity } from './check-capacity';
export {
  BULLSWARM_POOL,
  type CapacityReport,
  capFor,
  type ReadCapacityOptions,
  readCapacity,
  readCapacityMeter,
  resolvePool,
} from './read-capacity';
