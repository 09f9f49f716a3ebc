export { type DurationEstimate, estimateDuration } from './estimate-duration';
export { median, recordedMinutes } from './recorded-minutes';
