/** How polls back off after failures. */
export interface MeterBackoff {
  /** Hold after the first failure; default 30 s. */
  readonly initialMs?: number;
  /** Longest hold; default 15 min. */
  readonly maxMs?: number;
}

/** The default back-off: 30 s, 60 s, 120 s, 240 s, 480 s, then 900 s (15 min) from the 6th failure on. */
export const DEFAULT_METER_BACKOFF: Required<MeterBackoff> = { initialMs: 30_000, maxMs: 15 * 60_000 };

/**
 * How long to hold the last reading after `failures` consecutive failed polls:
 * `initialMs × 2^(failures−1)`, capped at `maxMs`.
 */
export function backoffDelayMs(failures: number, backoff: MeterBackoff = {}): number {
  const initial = backoff.initialMs ?? DEFAULT_METER_BACKOFF.initialMs;
  const max = backoff.maxMs ?? DEFAULT_METER_BACKOFF.maxMs;
  const exponent = Math.max(0, Math.min(failures - 1, 30));
  return Math.min(initial * 2 ** exponent, max);
}
