import { DEFAULT_CAPACITY_CRITICAL_PCT, DEFAULT_CAPACITY_LOW_PCT } from '../constants';
import { InvalidInputError } from '../errors/invalid-input-error';
import { formatCompact, windowLabel } from '../format';
import { effectiveWindow } from '../meter/effective-window';
import { meterReadings } from '../meter/find-window';
import { type PoolMeter, WINDOW_KINDS, type WindowKind, type WindowReserves } from '../types';

/** What an agent should do about its own room (swarm-autonomy, "The capacity loop"). */
export type CapacityVerdictKind = 'ok' | 'low' | 'critical' | 'unknown';

/** The capacity verdict of one pool's meter. */
export interface CapacityVerdict {
  /** `ok` continue · `low` prepare · `critical` hand off · `unknown` no quota source. */
  readonly verdict: CapacityVerdictKind;
  /** Free share of the binding window (lowered to the cap when one is given); null when unknown. */
  readonly freePct: number | null;
  /** The effective window with the least free share; null when unknown. */
  readonly bindingWindow: WindowKind | null;
  /** One human sentence saying why. */
  readonly reason: string;
}

/**
 * The capacity verdict of a meter. The binding window is the effective window with the least
 * free share (`100 − used% − reserve`, clamped to 0..100: a reserve the person keeps on the window
 * counts as used; ties go to the shorter window); `freePct` is that
 * share, lowered to `capPct` when a cap is given (never raised). `unknown` when the meter is
 * unmetered or has no windows — never `ok`; `critical` when the provider reports a rate limit or
 * `freePct <= criticalPct` (default 10); `low` when `freePct <= lowPct` (default 25); else `ok`.
 *
 * @throws InvalidInputError when a threshold is outside 0..100, `criticalPct > lowPct`, `now` is
 *   not finite or a window's reading is not a finite number.
 */
export function capacityVerdict(input: {
  readonly meter: PoolMeter;
  readonly now: number;
  readonly lowPct?: number;
  readonly criticalPct?: number;
  readonly capPct?: number;
  /** The share of each window the person keeps (`bullswarm pools reserve`); counted as used. */
  readonly reserves?: WindowReserves;
}): CapacityVerdict {
  const lowPct = checkPct('lowPct', input.lowPct ?? DEFAULT_CAPACITY_LOW_PCT);
  const criticalPct = checkPct('criticalPct', input.criticalPct ?? DEFAULT_CAPACITY_CRITICAL_PCT);
  if (criticalPct > lowPct) {
    throw new InvalidInputError({
      field: 'criticalPct',
      expected: `a value at or below lowPct (${lowPct})`,
      received: criticalPct,
    });
  }
  const capPct = input.capPct === undefined ? undefined : checkPct('capPct', input.capPct);

  if (!Number.isFinite(input.now)) {
    throw new InvalidInputError({ field: 'now', expected: 'a finite epoch-ms number', received: input.now });
  }
  const readings = meterReadings(input.meter);
  readings.forEach((w, i) => {
    if (!Number.isFinite(w.usedPct)) {
      throw new InvalidInputError({
        field: `meter.windows[${i}].usedPct`,
        expected: 'a finite percentage',
        received: w.usedPct,
      });
    }
  });
  if (readings.length === 0) {
    const why = input.meter.status === 'unmetered' ? 'no quota source (unmetered)' : 'no metered window';
    return { verdict: 'unknown', freePct: null, bindingWindow: null, reason: why };
  }

  let bindingWindow: WindowKind = readings[0]!.kind;
  let windowFree = Number.POSITIVE_INFINITY;
  let bindingReserve = 0;
  for (const raw of readings) {
    const reserve = input.reserves?.[raw.kind] ?? 0;
    const free = Math.min(100, Math.max(0, 100 - reserve - effectiveWindow(raw, input.now).usedPct));
    const tighter =
      free < windowFree ||
      (free === windowFree && WINDOW_KINDS.indexOf(raw.kind) < WINDOW_KINDS.indexOf(bindingWindow));
    if (tighter) {
      windowFree = free;
      bindingWindow = raw.kind;
      bindingReserve = reserve;
    }
  }
  const capped = capPct !== undefined && capPct < windowFree;
  const freePct = capped ? capPct : windowFree;
  const share =
    `${windowLabel(bindingWindow)} window ${formatCompact(windowFree)}% free` +
    (bindingReserve > 0 ? ` (after its ${formatCompact(bindingReserve)}% reserve)` : '') +
    (capped ? `, capped at ${formatCompact(capPct)}%` : '');

  if (input.meter.rateLimited) {
    return { verdict: 'critical', freePct, bindingWindow, reason: `rate-limited; ${share}` };
  }
  if (freePct <= criticalPct) {
    return {
      verdict: 'critical',
      freePct,
      bindingWindow,
      reason: `${share} (critical at or below ${criticalPct}%)`,
    };
  }
  if (freePct <= lowPct) {
    return { verdict: 'low', freePct, bindingWindow, reason: `${share} (low at or below ${lowPct}%)` };
  }
  return { verdict: 'ok', freePct, bindingWindow, reason: `${share} (above ${lowPct}%)` };
}

function checkPct(field: string, value: number): number {
  if (!(Number.isFinite(value) && value >= 0 && value <= 100)) {
    throw new InvalidInputError({ field, expected: 'a percentage from 0 to 100', received: value });
  }
  return value;
}
