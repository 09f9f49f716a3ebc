/** Re-exported from `@bullswarm/pacing`, which owns the base error of bullswarm. */
export { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';
