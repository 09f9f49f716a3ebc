export { type StallThreshold, stallThresholdMinutes } from './stall-threshold';
