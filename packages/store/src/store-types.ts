import type { EffortTier, Lane, MeterWindow, RunSample, WindowKind } from '@bullswarm/pacing';

/**
 * The store: everything bullswarm records that many processes on one machine share. The
 * embedded implementation is SQLite (WAL, busy timeout); the interface is small so that a
 * shared server-backed store can implement it later. Every method is synchronous and atomic
 * on its own; times are epoch milliseconds.
 */
export interface BullswarmStore {
  readonly ledger: InflightLedger;
  readonly runs: RunLog;
  readonly meters: MeterLog;
  readonly probes: ProbeCache;
  /** Close the underlying handle; the store is unusable afterwards. */
  close(): void;
}

/** One entry of the cross-process in-flight ledger. */
export interface InflightEntry {
  readonly id: string;
  readonly poolId: string;
  /** What is being done: a run id, or `<runId>/<stepId>` for a workflow step. */
  readonly action: string;
  readonly lane?: Lane;
  readonly tier?: EffortTier;
  readonly startedAt: number;
  readonly expectedMinutes?: number;
  /** The bullswarm process that dispatched the work (not the agent's pid). */
  readonly pid: number;
  /** The agent process, once spawned. */
  readonly workerPid?: number;
  readonly host: string;
}

export interface InflightLedger {
  /** Record work at dispatch; returns the entry with its generated id. */
  record(entry: Omit<InflightEntry, 'id' | 'host'> & { readonly id?: string }): InflightEntry;
  /**
   * Attach the spawned agent's pid to an entry, right after the spawn. The agent must lead its own
   * process group (spawned detached). On Linux the store also records its start time, so that if
   * the dispatching process dies without ending it (kill -9), the process that reaps the entry
   * ends the agent's group (SIGTERM, then SIGKILL after a grace) — only while that pid is provably
   * still the same agent.
   */
  setWorkerPid(id: string, workerPid: number): void;
  /** Release an entry on any ending; releasing an unknown id is a no-op. Returns whether it existed. */
  release(id: string): boolean;
  /**
   * Everything in flight now. Entries whose dispatching process is gone (dead pid on this host,
   * or a pid reused by a newer process) are reaped first, so a crashed process never leaves a
   * pool looking busy.
   */
  list(filter?: { readonly poolId?: string }): InflightEntry[];
  /** Remove entries of dead processes; returns how many were removed. */
  reap(): number;
}

/** A finished attempt, as recorded for estimates, stall thresholds and spend rates. */
export interface RunRecord extends RunSample {
  readonly id: string;
  readonly lane: Lane;
  readonly action: string;
  /** Minutes the agent process actually ran (what spend rates divide by). */
  readonly workerMinutes: number;
  readonly model?: string;
  readonly failureKind?: string;
}

export interface RunLog {
  append(run: RunRecord): void;
  /** Runs, newest first; filter by pool, tier, and a start time lower bound. */
  list(filter?: {
    readonly poolId?: string;
    readonly tier?: EffortTier;
    readonly since?: number;
    readonly limit?: number;
  }): RunRecord[];
}

/** One retained meter reading of one window. */
export interface MeterReadingRow {
  readonly poolId: string;
  readonly window: WindowKind;
  readonly usedPct: number;
  readonly resetsAt?: number;
  readonly windowMinutes: number;
  readonly readAt: number;
  /** Where it came from: the reader id (`codex-rollout`, `file`, `command`, `manual`, …). */
  readonly source: string;
}

/** The cached state of a pool's meter: the last good reading and the poll bookkeeping. */
export interface MeterCacheEntry {
  readonly poolId: string;
  readonly windows: readonly MeterWindow[];
  readonly readAt: number;
  readonly source: string;
  readonly rateLimited?: boolean;
  /** Set after a failed poll: why it failed (short status). */
  readonly meterError?: string;
  /** Set after a failed poll: the reader's full message (file/field path; never a credential). */
  readonly meterErrorDetail?: string;
  /** Set after a failed poll: no re-poll before this time (back-off). */
  readonly meterHoldUntil?: number;
  /** Consecutive failed polls (drives the back-off). */
  readonly failures: number;
  /** A re-read is forced before the next use (set after a usage limit). */
  readonly forceReread?: boolean;
}

export interface MeterLog {
  /** Retain readings (one row per window). */
  appendReadings(rows: readonly MeterReadingRow[]): void;
  /** Retained readings of a pool, oldest first. */
  listReadings(
    poolId: string,
    filter?: { readonly window?: WindowKind; readonly since?: number },
  ): MeterReadingRow[];
  /** Drop readings older than a time; returns how many were dropped. */
  pruneReadings(before: number): number;
  getCache(poolId: string): MeterCacheEntry | undefined;
  setCache(entry: MeterCacheEntry): void;
  /** Mark a pool's cache so the next read goes to the source (after a usage limit). */
  forceReread(poolId: string): void;
  /** Manual readings set from the CLI (`meters set`), which replace the source for a pool. */
  getManual(poolId: string): { readonly windows: readonly MeterWindow[]; readonly setAt: number } | undefined;
  setManual(poolId: string, windows: readonly MeterWindow[] | undefined, setAt: number): void;
}

/** A free-model liveness probe result, cached 15 minutes per pool and model. */
export interface ProbeResult {
  readonly poolId: string;
  readonly model: string;
  readonly ok: boolean;
  /** Why it failed: `404`, `provider error: …`, `timeout`. */
  readonly reason?: string;
  readonly checkedAt: number;
}

export interface ProbeCache {
  get(poolId: string, model: string): ProbeResult | undefined;
  set(result: ProbeResult): void;
}
