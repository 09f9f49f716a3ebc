export { computePace, type PaceResult } from './compute-pace';
export { effectiveWindow, minutesUntilReset } from './effective-window';
export { findWindow, meterReadings } from './find-window';
export { elapsedPctOfEffective, windowElapsedPct } from './window-elapsed-pct';
