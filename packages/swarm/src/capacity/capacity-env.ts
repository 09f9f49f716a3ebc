import { DEFAULT_CAPACITY_CRITICAL_PCT, DEFAULT_CAPACITY_LOW_PCT } from '@bullswarm/pacing/internal';
import { SwarmInputError } from '../errors/swarm-input-error';
import { readSeconds, type SwarmEnv } from '../settings/swarm-env';

/** Threshold variables, bullswarm's name first, then the kit's (swarm-autonomy names the kit's). */
export const CAPACITY_LOW_VARS = ['BULLSWARM_CAPACITY_LOW', 'AGENTKIT_CAPACITY_LOW'] as const;
export const CAPACITY_CRITICAL_VARS = ['BULLSWARM_CAPACITY_CRITICAL', 'AGENTKIT_CAPACITY_CRITICAL'] as const;
/**
 * Cap variables: `@<profile>=<pct>` (a pool id, label or account name; see `resolvePool`),
 * comma-separated; both are honoured and the lower cap wins.
 */
export const CAPACITY_CAP_VARS = ['BULLSWARM_CAPACITY_CAP', 'AGENTKIT_CAPACITY_CAP'] as const;
/** A held or manual reading older than this many seconds gives `unknown` (default 900). */
export const BULLSWARM_CAPACITY_MAX_AGE_SEC = 'BULLSWARM_CAPACITY_MAX_AGE_SEC';
export const DEFAULT_CAPACITY_MAX_AGE_SEC = 900;
/** Capacity reads meters through a cache kept for 300 seconds. */
export const CAPACITY_METER_TTL_MS = 300_000;

/** The thresholds a verdict is judged by, and where each came from. */
export interface CapacityThresholds {
  readonly lowPct: number;
  readonly criticalPct: number;
  /** The variable that set `lowPct`, or `default`. */
  readonly lowSource: string;
  readonly criticalSource: string;
}

/** One pool's cap from the environment. */
export interface CapacityCap {
  readonly poolRef: string;
  readonly pct: number;
  /** The variable it came from. */
  readonly variable: string;
}

function readPct(
  env: SwarmEnv,
  names: readonly string[],
  fallback: number,
): { value: number; source: string } {
  for (const name of names) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    const value = Number(raw.trim().replace(/%$/, ''));
    if (!Number.isFinite(value) || value < 0 || value > 100) {
      throw new SwarmInputError({
        field: name,
        expected: 'a percentage from 0 to 100, e.g. 25',
        received: raw,
      });
    }
    return { value, source: name };
  }
  return { value: fallback, source: 'default' };
}

/**
 * The capacity thresholds of an environment: low at 25 % and critical at 10 % of the binding
 * window's free share by default; `BULLSWARM_CAPACITY_LOW` / `BULLSWARM_CAPACITY_CRITICAL` set them,
 * else the kit's `AGENTKIT_CAPACITY_LOW` / `AGENTKIT_CAPACITY_CRITICAL`.
 * @throws SwarmInputError naming the variable when a value is not a percentage, or critical > low.
 */
export function capacityThresholds(env: SwarmEnv): CapacityThresholds {
  const low = readPct(env, CAPACITY_LOW_VARS, DEFAULT_CAPACITY_LOW_PCT);
  const critical = readPct(env, CAPACITY_CRITICAL_VARS, DEFAULT_CAPACITY_CRITICAL_PCT);
  if (critical.value > low.value) {
    throw new SwarmInputError({
      field: critical.source === 'default' ? low.source : critical.source,
      expected: `a critical threshold at or below the low threshold (low ${low.value}% from ${low.source}, critical ${critical.value}% from ${critical.source})`,
      received: String(critical.source === 'default' ? low.value : critical.value),
    });
  }
  return {
    lowPct: low.value,
    criticalPct: critical.value,
    lowSource: low.source,
    criticalSource: critical.source,
  };
}

/**
 * The caps of an environment: `BULLSWARM_CAPACITY_CAP` and `AGENTKIT_CAPACITY_CAP`, each
 * `@<profile>=<pct>[,@<profile>=<pct>…]` (the `@` is optional; `<profile>` is a pool id, label or
 * account name). When both
 * name a pool the lower cap wins. A cap only ever lowers a reading (see `capacityVerdict`).
 * @throws SwarmInputError naming the variable and the entry that is malformed.
 */
export function parseCapacityCaps(env: SwarmEnv): CapacityCap[] {
  const caps: CapacityCap[] = [];
  for (const variable of CAPACITY_CAP_VARS) {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') continue;
    for (const part of raw.split(',')) {
      const entry = part.trim();
      if (entry === '') continue;
      const match = /^@?([^=\s]+)=([0-9]+(?:\.[0-9]+)?)%?$/.exec(entry);
      const pct = match ? Number(match[2]) : Number.NaN;
      if (!match || !(pct >= 0 && pct <= 100)) {
        throw new SwarmInputError({
          field: variable,
          expected:
            '@<profile>=<percent>[,@<profile>=<percent>…] with a percentage from 0 to 100, e.g. @work1=8',
          received: entry,
        });
      }
      caps.push({ poolRef: match[1]!, pct, variable });
    }
  }
  return caps;
}

/** The maximum age of a held (stale) or manual reading before capacity says `unknown`. */
export function capacityMaxAgeMs(env: SwarmEnv): number {
  return readSeconds(env, BULLSWARM_CAPACITY_MAX_AGE_SEC, DEFAULT_CAPACITY_MAX_AGE_SEC) * 1000;
}
