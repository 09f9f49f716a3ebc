export { bootstrapMinutesFor, type DurationEstimate, estimateDuration } from './estimate-duration';
export { fillRecordedMinutes, median, medianOfFirst, recordedMinutes } from './recorded-minutes';
