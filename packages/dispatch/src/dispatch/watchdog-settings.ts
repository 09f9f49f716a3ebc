import { InvalidEnvironmentError } from '@bullswarm/store';
import type { WatchdogSettings } from './dispatch-types';

/** Overrides the silence clock of every worker, in seconds (docs/routing.md, "Stall fallback"). */
export const WORKER_SILENCE_SEC = 'BULLSWARM_WORKER_SILENCE_SEC';
/** The no-progress clock of build and chore workers, in seconds; `0` turns it off. */
export const WORKER_NO_PROGRESS_SEC = 'BULLSWARM_WORKER_NO_PROGRESS_SEC';
/** The throttle back-off waits, in seconds, comma-separated (one or two), e.g. `20,60`. */
export const THROTTLE_BACKOFF_SEC = 'BULLSWARM_THROTTLE_BACKOFF_SEC';
/** How long network-wait notices may go on with no progress before the attempt ends, in seconds. */
export const WORKER_NETWORK_WAIT_SEC = 'BULLSWARM_WORKER_NETWORK_WAIT_SEC';
/** How long a free-model liveness probe may run, in seconds. */
export const PROBE_TIMEOUT_SEC = 'BULLSWARM_PROBE_TIMEOUT_SEC';

/** The defaults of {@link WatchdogSettings} (the spec's numbers). */
export const DEFAULT_WATCHDOG_SETTINGS: WatchdogSettings = {
  noProgressMs: 3_600_000,
  killGraceMs: 5_000,
  throttleWaitsMs: [20_000, 60_000],
  throttleMaxNamedWaitMs: 120_000,
  probeTimeoutMs: 60_000,
  probeCacheMs: 15 * 60_000,
  networkWaitMs: 120_000,
};

function seconds(
  env: Readonly<Record<string, string | undefined>>,
  variable: string,
  allowZero: boolean,
): number | undefined {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw.trim());
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !Number.isFinite(value) || (!allowZero && value === 0)) {
    throw new InvalidEnvironmentError({
      variable,
      value: raw,
      expected: allowZero
        ? 'a number of seconds, 0 or more (0 turns it off), such as 3600'
        : 'a positive number of seconds, such as 300',
    });
  }
  return Math.round(value * 1000);
}

/**
 * The watchdog clocks from the environment, over {@link DEFAULT_WATCHDOG_SETTINGS}:
 * - `BULLSWARM_WORKER_SILENCE_SEC` (positive seconds) sets `silenceMs` for every pool; unset, the
 *   silence clock is per pool (1 h metered, the p50 of a free pool's own runs).
 * - `BULLSWARM_WORKER_NO_PROGRESS_SEC` (seconds, `0` off) sets `noProgressMs` (default 3600 s).
 * - `BULLSWARM_THROTTLE_BACKOFF_SEC` (`a,b`: one or two positive seconds) sets `throttleWaitsMs`;
 *   the number of waits is the number of back-offs (the spec's is two: 20 s then 60 s).
 * - `BULLSWARM_PROBE_TIMEOUT_SEC` (positive seconds) sets `probeTimeoutMs` (default 60 s).
 * - `BULLSWARM_WORKER_NETWORK_WAIT_SEC` (positive seconds) sets `networkWaitMs` (default 120 s).
 * Fractions are accepted (`0.5`) so tests can shorten clocks. An empty value counts as unset.
 *
 * @throws InvalidEnvironmentError naming the variable and what would be valid.
 */
export function resolveWatchdogSettings(
  env: Readonly<Record<string, string | undefined>> = process.env,
): WatchdogSettings {
  const silenceMs = seconds(env, WORKER_SILENCE_SEC, false);
  const noProgressMs = seconds(env, WORKER_NO_PROGRESS_SEC, true);
  const probeTimeoutMs = seconds(env, PROBE_TIMEOUT_SEC, false);
  const networkWaitMs = seconds(env, WORKER_NETWORK_WAIT_SEC, false);
  let throttleWaitsMs: readonly number[] | undefined;
  const rawWaits = env[THROTTLE_BACKOFF_SEC];
  if (rawWaits !== undefined && rawWaits.trim() !== '') {
    const parts = rawWaits.split(',').map((part) => part.trim());
    const valid =
      parts.length >= 1 &&
      parts.length <= 2 &&
      parts.every((part) => /^\d+(\.\d+)?$/.test(part) && Number(part) > 0);
    if (!valid) {
      throw new InvalidEnvironmentError({
        variable: THROTTLE_BACKOFF_SEC,
        value: rawWaits,
        expected: 'one or two positive numbers of seconds separated by a comma, such as 20,60',
      });
    }
    throttleWaitsMs = parts.map((part) => Math.round(Number(part) * 1000));
  }
  return {
    ...DEFAULT_WATCHDOG_SETTINGS,
    ...(silenceMs === undefined ? {} : { silenceMs }),
    ...(noProgressMs === undefined ? {} : { noProgressMs }),
    ...(probeTimeoutMs === undefined ? {} : { probeTimeoutMs }),
    ...(networkWaitMs === undefined ? {} : { networkWaitMs }),
    ...(throttleWaitsMs === undefined ? {} : { throttleWaitsMs }),
  };
}
