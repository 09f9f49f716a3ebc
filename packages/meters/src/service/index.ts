export {
  applySubscriptionOverride,
  type SubscriptionOverride,
} from './apply-subscription-override';
export { backoffDelayMs, DEFAULT_METER_BACKOFF, type MeterBackoff } from './backoff';
export {
  createMeterService,
  type MeterService,
  type MeterServiceSettings,
  type PoolMeterRequest,
  type UsageLimitMark,
  type UsageLimitNotice,
} from './create-meter-service';
export { MAX_METER_ERROR_DETAIL_CHARS, meterErrorDetail } from './meter-error-detail';
