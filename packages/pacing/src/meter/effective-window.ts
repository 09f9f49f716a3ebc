import { MINUTE_MS } from '../constants';
import { InvalidInputError } from '../errors/invalid-input-error';
import type { MeterWindow } from '../types';

/**
 * The window as it stands at `now`. A window whose reset has passed (`resetsAt <= now`) has
 * reset: it reads 0% used and its `resetsAt` is advanced by whole window lengths until it lies
 * after `now`. A window without `resetsAt` is returned unchanged. Every routing function reads
 * windows through this.
 *
 * A monthly window is advanced by its own `windowMinutes`, so a reset that passed more than one
 * month ago lands on an approximate date; the meter's next reading corrects it.
 *
 * @throws InvalidInputError when `windowMinutes` is not a positive finite number.
 */
export function effectiveWindow(w: MeterWindow, now: number): MeterWindow {
  if (w.resetsAt === undefined || w.resetsAt > now) return w;
  if (!(Number.isFinite(w.windowMinutes) && w.windowMinutes > 0)) {
    throw new InvalidInputError({
      field: `${w.kind} window windowMinutes`,
      expected: 'a positive number of minutes (300, 10080, or the month length)',
      received: w.windowMinutes,
    });
  }
  const lengthMs = w.windowMinutes * MINUTE_MS;
  const periods = Math.floor((now - w.resetsAt) / lengthMs) + 1;
  return { ...w, usedPct: 0, resetsAt: w.resetsAt + periods * lengthMs };
}

/** Minutes from `now` until the (effective) window resets; null when the reset is unknown. */
export function minutesUntilReset(w: MeterWindow, now: number): number | null {
  const effective = effectiveWindow(w, now);
  return effective.resetsAt === undefined ? null : (effective.resetsAt - now) / MINUTE_MS;
}
