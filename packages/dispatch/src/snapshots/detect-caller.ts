import { findCallerMarker } from '@bullswarm/connectors';
import type { PoolDetail } from './build-pool-snapshots';

/** The environment variable bullswarm sets for every agent it launches: the pool it runs on. */
export const BULLSWARM_POOL = 'BULLSWARM_POOL';

/** A pool left out because its agent invoked bullswarm. */
export interface CallerPool {
  readonly poolId: string;
  /** How the caller was recognised, e.g. `BULLSWARM_POOL=codex` or `CLAUDECODE`. */
  readonly evidence: string;
}

/**
 * Which pools are the caller of this bullswarm process: the agent CLI that invoked bullswarm is
 * never a pool of its own run (docs/routing.md, "The caller").
 *
 * 1. `BULLSWARM_POOL` names a known pool (bullswarm launched the calling agent): that pool.
 * 2. Otherwise, for each connector whose caller marker (`callerEnv`, e.g. `CLAUDECODE`) is set: the
 *    pools of that connector whose account environment matches this process's environment (same
 *    `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, …). When none matches, the connector's pools without any
 *    account environment (its default login) — the agent runs on its default account unless its
 *    account variable says otherwise.
 */
export function detectCallerPools(
  details: ReadonlyMap<string, PoolDetail>,
  env: Readonly<Record<string, string | undefined>>,
): CallerPool[] {
  const named = env[BULLSWARM_POOL];
  if (named !== undefined && named !== '' && details.has(named)) {
    return [{ poolId: named, evidence: `${BULLSWARM_POOL}=${named}` }];
  }
  const callers: CallerPool[] = [];
  const byConnector = new Map<string, PoolDetail[]>();
  for (const detail of details.values()) {
    if (!detail.connector) continue;
    const list = byConnector.get(detail.connector.connectorId) ?? [];
    list.push(detail);
    byConnector.set(detail.connector.connectorId, list);
  }
  for (const pools of byConnector.values()) {
    const connector = pools[0]!.connector!;
    const marker = findCallerMarker(connector.callerEnv, env);
    if (marker === undefined) continue;
    const matching = pools.filter((detail) => {
      const entries = Object.entries(detail.accountEnv);
      return entries.length > 0 && entries.every(([name, value]) => env[name] === value);
    });
    const chosen =
      matching.length > 0 ? matching : pools.filter((detail) => Object.keys(detail.accountEnv).length === 0);
    for (const detail of chosen) {
      callers.push({ poolId: detail.pool.id, evidence: marker });
    }
  }
  return callers;
}
