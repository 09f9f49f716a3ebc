import { InvalidInputError, type PacingWindowKind, type PoolMeter } from '@bullswarm/pacing';

/** A pool's subscription override (`bullswarm strategy set-subscription`), as state.json keeps it. */
export interface SubscriptionOverride {
  /** The window the pool is paced from. */
  readonly quotaWindow: PacingWindowKind;
  /** The end of the current subscription window: ISO-8601 (as state.json stores it) or epoch ms. */
  readonly resetsAt?: string | number;
}

const DAY_MS = 86_400_000;

/**
 * Supplies the reset of a pool's pacing window when the provider reports usage but no reset
 * (`strategy set-subscription <pool> --quota-window weekly|monthly --resets-at <iso>`). Pure.
 *
 * - Only the window of kind `quotaWindow` is touched, and only when it has no `resetsAt`: a reset
 *   the provider gave always wins. A meter without that window, an `unmetered` meter, or an
 *   override without `resetsAt` is returned unchanged.
 * - With `now`, an override reset that has already passed is carried forward to the next one
 *   after `now`: weekly by whole weeks, monthly by calendar months (UTC, the day clamped to the
 *   month's length: Jan 31 → Feb 28 → Mar 31). Without `now` it is used as given.
 *
 * @throws InvalidInputError when `resetsAt` is not an ISO-8601 instant or a finite number.
 */
export function applySubscriptionOverride(
  meter: PoolMeter,
  override: SubscriptionOverride,
  now?: number,
): PoolMeter {
  if (override.resetsAt === undefined || meter.status === 'unmetered') return meter;
  let resetsAt = typeof override.resetsAt === 'number' ? override.resetsAt : Date.parse(override.resetsAt);
  if (!Number.isFinite(resetsAt)) {
    throw new InvalidInputError({
      field: 'subscription.resetsAt',
      expected: 'an ISO-8601 instant such as 2026-12-01T00:00:00Z, or epoch milliseconds',
      received: override.resetsAt,
    });
  }
  const index = meter.windows.findIndex((w) => w.kind === override.quotaWindow);
  const window = meter.windows[index];
  if (!window || window.resetsAt !== undefined) return meter;
  if (now !== undefined && resetsAt <= now) resetsAt = nextReset(resetsAt, override.quotaWindow, now);
  const windows = meter.windows.slice();
  windows[index] = { ...window, resetsAt };
  return { ...meter, windows };
}

function nextReset(resetsAt: number, kind: PacingWindowKind, now: number): number {
  if (kind === 'weekly') {
    const week = 7 * DAY_MS;
    return resetsAt + (Math.floor((now - resetsAt) / week) + 1) * week;
  }
  const start = new Date(resetsAt);
  const day = start.getUTCDate();
  const timeOfDay = resetsAt - Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), day);
  for (let months = 1; ; months += 1) {
    const year = start.getUTCFullYear();
    const month = start.getUTCMonth() + months;
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    const candidate = Date.UTC(year, month, Math.min(day, lastDay)) + timeOfDay;
    if (candidate > now) return candidate;
  }
}
