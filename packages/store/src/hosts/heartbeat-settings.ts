import { InvalidEnvironmentError } from '../errors/invalid-environment-error';
import { StoreInputError } from '../errors/store-input-error';

/** `BULLSWARM_STORE_HEARTBEAT_SEC`: how often a process renews its rows (default 30). */
export const BULLSWARM_STORE_HEARTBEAT_SEC = 'BULLSWARM_STORE_HEARTBEAT_SEC';
/** `BULLSWARM_STORE_TTL_SEC`: how old another host's heartbeat may be before its row is reaped (default 120). */
export const BULLSWARM_STORE_TTL_SEC = 'BULLSWARM_STORE_TTL_SEC';

/** Default renewal interval: 30 s. */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 30_000;
/** Default TTL of another host's rows: 120 s (four missed renewals). */
export const DEFAULT_HEARTBEAT_TTL_MS = 120_000;

/**
 * How rows of other hosts live: each process renews `heartbeat_at` of its in-flight entries and
 * claims every `intervalMs`; a row of another host whose heartbeat is older than `ttlMs` is
 * reaped. The TTL is the reader's judgement, so every host sharing a store should use the same
 * one, and it must leave room for a late renewal and for clock skew between the hosts (keep
 * their clocks in sync with NTP): `ttlMs` must be at least twice `intervalMs`.
 */
export interface HeartbeatSettings {
  readonly intervalMs: number;
  readonly ttlMs: number;
}

function seconds(
  env: Readonly<Record<string, string | undefined>>,
  variable: string,
  fallbackMs: number,
): number {
  const text = env[variable];
  if (text === undefined || text === '') return fallbackMs;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) {
    throw new InvalidEnvironmentError({ variable, value: text, expected: 'a number of seconds > 0' });
  }
  return value * 1000;
}

/**
 * The heartbeat settings: `overrides`, else `BULLSWARM_STORE_HEARTBEAT_SEC` and
 * `BULLSWARM_STORE_TTL_SEC`, else 30 s and 120 s.
 * @throws InvalidEnvironmentError for an unusable variable; StoreInputError when the TTL is under twice the interval.
 */
export function resolveHeartbeatSettings(
  env: Readonly<Record<string, string | undefined>>,
  overrides: Partial<HeartbeatSettings> = {},
): HeartbeatSettings {
  const intervalMs =
    overrides.intervalMs ?? seconds(env, BULLSWARM_STORE_HEARTBEAT_SEC, DEFAULT_HEARTBEAT_INTERVAL_MS);
  const ttlMs = overrides.ttlMs ?? seconds(env, BULLSWARM_STORE_TTL_SEC, DEFAULT_HEARTBEAT_TTL_MS);
  for (const [field, value] of [
    ['heartbeat.intervalMs', intervalMs],
    ['heartbeat.ttlMs', ttlMs],
  ] as const) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new StoreInputError({
        operation: 'openStore',
        field,
        expected: 'a number of milliseconds > 0',
        value,
      });
    }
  }
  if (ttlMs < 2 * intervalMs) {
    throw new StoreInputError({
      operation: 'openStore',
      field: 'heartbeat.ttlMs',
      expected: `at least twice the renewal interval (${intervalMs} ms; set ${BULLSWARM_STORE_TTL_SEC} ≥ 2 × ${BULLSWARM_STORE_HEARTBEAT_SEC})`,
      value: ttlMs,
    });
  }
  return { intervalMs, ttlMs };
}
