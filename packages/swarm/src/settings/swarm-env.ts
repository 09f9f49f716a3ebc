import { SwarmInputError } from '../errors/swarm-input-error';

/** An environment as bullswarm reads it. */
export type SwarmEnv = Readonly<Record<string, string | undefined>>;

/** The address of the agent this process runs as (set by bullswarm for every agent it launches). */
export const BULLSWARM_AGENT = 'BULLSWARM_AGENT';
/** The plan a launched agent works on (`<repo>/<id>` or `<id>`). */
export const BULLSWARM_PLAN = 'BULLSWARM_PLAN';
/** Seconds without a heartbeat after which an agent is unreachable (default 900). */
export const BULLSWARM_AGENT_STALE_SEC = 'BULLSWARM_AGENT_STALE_SEC';
/** Seconds a lease lives past its last renewal (default 1800). */
export const BULLSWARM_LEASE_TTL_SEC = 'BULLSWARM_LEASE_TTL_SEC';

/** Seconds after which an ask nobody answered has timed out (default 1800); set when the ask is sent. */
export const BULLSWARM_ASK_TIMEOUT_SEC = 'BULLSWARM_ASK_TIMEOUT_SEC';

/** Default heartbeat staleness: an agent silent for 15 minutes is unreachable. */
export const DEFAULT_AGENT_STALE_SEC = 900;
/** Default lease TTL: twice the staleness, so a holder that heartbeats at every turn keeps its lease. */
export const DEFAULT_LEASE_TTL_SEC = 1800;
/** Default ask timeout: half an hour, the lease TTL (a lead that ends its turns answers well within it). */
export const DEFAULT_ASK_TIMEOUT_SEC = 1800;

/** The clocks of the swarm records, from the environment. */
export interface SwarmSettings {
  /** An agent with no heartbeat for this long is unreachable. */
  readonly agentStaleMs: number;
  /** A lease expires this long after it was granted or last renewed by its holder's heartbeat. */
  readonly leaseTtlMs: number;
  /** An ask times out when unanswered this long after it was sent (unless the ask names its own). */
  readonly askTimeoutMs: number;
}

/**
 * Reads a positive number of seconds from `env[name]`; `fallback` when unset or empty.
 * @throws SwarmInputError naming the variable when it is not a positive number.
 */
export function readSeconds(env: SwarmEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!Number.isFinite(value) || value <= 0) {
    throw new SwarmInputError({
      field: name,
      expected: 'a positive number of seconds, e.g. 900',
      received: raw,
    });
  }
  return value;
}

/**
 * The swarm clocks of an environment (`BULLSWARM_AGENT_STALE_SEC`, `BULLSWARM_LEASE_TTL_SEC`,
 * `BULLSWARM_ASK_TIMEOUT_SEC`).
 */
export function resolveSwarmSettings(env: SwarmEnv): SwarmSettings {
  return {
    agentStaleMs: readSeconds(env, BULLSWARM_AGENT_STALE_SEC, DEFAULT_AGENT_STALE_SEC) * 1000,
    leaseTtlMs: readSeconds(env, BULLSWARM_LEASE_TTL_SEC, DEFAULT_LEASE_TTL_SEC) * 1000,
    askTimeoutMs: readSeconds(env, BULLSWARM_ASK_TIMEOUT_SEC, DEFAULT_ASK_TIMEOUT_SEC) * 1000,
  };
}
