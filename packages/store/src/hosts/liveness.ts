import { isRecordedProcessAlive } from '@bullswarm/connectors/internal';
import { legacyHostId } from './host-id';

/** How a row's holder is judged: what this host is, and how long another host's heartbeat lasts. */
export interface LivenessRules {
  /** This machine's host id. */
  readonly hostId: string;
  /** Another host's row is stale once its heartbeat is older than this. */
  readonly ttlMs: number;
  /** Epoch ms now (the store's clock). */
  readonly now: () => number;
}

/** A row with a holder: a ledger entry, a claim. */
export interface HeldRow {
  readonly host: string;
  readonly pid: number;
  /** The holder's start time (`/proc/<pid>/stat` field 22), when it was readable. */
  readonly pidStartTime: string | null;
  /** The last renewal; null for rows written before heartbeats (then `since` counts). */
  readonly heartbeatAt: number | null;
  /** When the row was written. */
  readonly since: number;
}

/** What became of a holder. */
export type HolderVerdict =
  /** Its process runs (this host), or its heartbeat is within the TTL (another host). */
  | 'alive'
  /** This host, and its process is gone or the pid was reused (start times differ). */
  | 'dead'
  /** Another host, and its heartbeat is older than the TTL. */
  | 'stale';

let legacy: string | undefined;

/**
 * Whether a row's `host` is this machine: its host id, or — for rows written before host ids
 * (schema step 4) — its bare hostname.
 */
export function isLocalHost(rules: LivenessRules, host: string): boolean {
  legacy ??= legacyHostId();
  return host === rules.hostId || host === legacy;
}

/**
 * Judges a holder. This host: the pid and start-time proof, exactly as before (no clock, no TTL).
 * Another host: its heartbeat alone — never a pid, which means nothing here. `verdicts` caches the
 * process checks of one pass (many rows of one dispatcher).
 */
export function judgeHolder(
  rules: LivenessRules,
  row: HeldRow,
  now: number,
  verdicts: Map<string, boolean> = new Map(),
): HolderVerdict {
  if (isLocalHost(rules, row.host)) {
    const key = `${row.pid}/${row.pidStartTime ?? ''}`;
    let alive = verdicts.get(key);
    if (alive === undefined) {
      alive = isRecordedProcessAlive(row.pid, row.pidStartTime ?? undefined);
      verdicts.set(key, alive);
    }
    return alive ? 'alive' : 'dead';
  }
  return now - (row.heartbeatAt ?? row.since) > rules.ttlMs ? 'stale' : 'alive';
}
