import type { MeterWindow, PoolMeter, WindowKind } from '../types';

/**
 * The reading of one window kind, or null. An `unmetered` meter has no readings: any windows it
 * carries are ignored everywhere (spent check, pace, 5-hour forecast). When a meter lists the same
 * kind twice, the first one counts.
 */
export function findWindow(meter: PoolMeter, kind: WindowKind): MeterWindow | null {
  if (meter.status === 'unmetered') return null;
  for (const w of meter.windows) if (w.kind === kind) return w;
  return null;
}

/** The windows routing reads: none for an `unmetered` meter. */
export function meterReadings(meter: PoolMeter): readonly MeterWindow[] {
  return meter.status === 'unmetered' ? [] : meter.windows;
}
