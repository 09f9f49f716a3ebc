import type { AppliedMigration, MigrationStatus } from '../engine/migration-status';
import type { SqlEngine, SqlSession, TransactionOptions } from '../engine/sql-session';
import type { HeartbeatSettings } from '../hosts/heartbeat-settings';
import type { HeartbeatRenewer } from '../hosts/store-heartbeat';
import type { StoreMigrations } from '../sqlite/migrations';
import type { InflightLedger, MeterLog, ProbeCache, RunLog } from '../store-types';

/** The asynchronous form of a synchronous book: every method returns a promise of the same value. */
export type Promised<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : T[K];
};

/**
 * The in-flight ledger of an asynchronous store (both engines). The same operations as
 * {@link InflightLedger}; what changes across hosts:
 *
 * - every entry records this machine's host id (`host`) and a heartbeat (`heartbeat_at`), renewed
 *   by the store's heartbeat while this process holds it;
 * - `list` and `reap` judge entries of this host by pid and start time (and end an orphaned
 *   worker group, as before), entries of other hosts by heartbeat age against the TTL — never
 *   by a pid check across hosts.
 */
export interface AsyncInflightLedger extends Promised<InflightLedger> {
  /** Renew `heartbeat_at` of this process's entries now; returns how many (the heartbeat calls it). */
  renew(): Promise<number>;
}

export type AsyncRunLog = Promised<RunLog>;
export type AsyncMeterLog = Promised<MeterLog>;
export type AsyncProbeCache = Promised<ProbeCache>;

/** The holder of a claim. */
export interface ClaimHolder {
  readonly scope: string;
  readonly name: string;
  readonly host: string;
  readonly pid: number;
  readonly claimedAt: number;
  readonly heartbeatAt: number;
  /** Whether `host` is this machine. */
  readonly local: boolean;
}

/** A claim this process holds. */
export interface HeldClaim {
  readonly holder: ClaimHolder;
  /** Give it back (removes only this claim's row); idempotent. Returns whether the row was there. */
  release(): Promise<boolean>;
}

/** The outcome of {@link ClaimBook.claim}. */
export type ClaimOutcome =
  | { readonly claimed: true; readonly claim: HeldClaim }
  | { readonly claimed: false; readonly holder: ClaimHolder };

/**
 * Ownership claims: at most one live process owns a named thing (`scope` + `name`, e.g.
 * `workflow-run` + a run id). Unique by the primary key; a claim reads, judges and replaces the
 * row in one transaction, so any number of processes on any number of hosts racing for one name
 * leave exactly one owner. A holder on this host is alive while its pid and start time are; a
 * holder on another host while its heartbeat is within the TTL (the store renews this process's
 * claims). Phase 2 moves the workflow's run owners (`workflow_owners`) here.
 */
export interface ClaimBook {
  claim(scope: string, name: string): Promise<ClaimOutcome>;
  /** The live holder, if any (a dead or stale one counts as none). */
  holder(scope: string, name: string): Promise<ClaimHolder | undefined>;
  /** Renew `heartbeat_at` of this process's claims now; returns how many. */
  renew(): Promise<number>;
}

/** The books of a store. */
export interface AsyncStoreBooks {
  readonly ledger: AsyncInflightLedger;
  readonly runs: AsyncRunLog;
  readonly meters: AsyncMeterLog;
  readonly probes: AsyncProbeCache;
  readonly claims: ClaimBook;
}

/** The books bound to one transaction, and its SQL session (for other packages' tables). */
export interface AsyncStoreTransaction extends AsyncStoreBooks {
  readonly sql: SqlSession;
}

/** The heartbeat of an open store, as packages see it. */
export interface StoreHeartbeatControl {
  readonly settings: HeartbeatSettings;
  /** Renew more rows at every tick (phase 2: the swarm's); returns the removal. */
  add(renewer: HeartbeatRenewer): () => void;
  /** Renew now. */
  renewNow(): Promise<void>;
  /** The last renewal's failure, if it failed. */
  readonly lastError: unknown;
}

/**
 * The bullswarm store, asynchronous, on either engine: embedded SQLite (the default; the home's
 * `bullswarm.db`) or a shared Postgres (`BULLSWARM_STORE_URL` / `config.storeUrl`).
 *
 * @example
 * ```ts
 * const store = await openHomeStore(openHome(), { create: true });
 * try {
 *   const entry = await store.transaction(async (tx) => {
 *     const inFlight = await tx.ledger.list(); // everyone's load, every host's
 *     return tx.ledger.record({ poolId: pick(inFlight), action: 'run-1', startedAt: Date.now(), pid: process.pid });
 *   }, { lock: 'store.ledger' });
 *   // … run the agent …
 *   await store.ledger.release(entry.id);
 * } finally {
 *   await store.close();
 * }
 * ```
 */
export interface AsyncBullswarmStore extends AsyncStoreBooks {
  readonly engine: 'sqlite' | 'postgres';
  /** The SQLite file, or the Postgres URL without its password: safe to print. */
  readonly location: string;
  /** This machine's id in the store (see `resolveHostId`). */
  readonly hostId: string;
  /**
   * Opened where it cannot be written (SQLite: a read-only home, see `openStore`): reads work, a
   * write fails naming the database. Always false on Postgres (its permissions are the server's).
   */
  readonly readOnly: boolean;
  /** The SQL layer, for bullswarm packages' own tables (see `engine/sql-session.ts`). */
  readonly sql: SqlEngine;
  /**
   * Run `fn` in one write transaction with the books bound to it (see the rules of
   * `SqlSession.transaction`: touch only the database; it may run more than once on Postgres).
   */
  transaction<T>(fn: (tx: AsyncStoreTransaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  readonly heartbeat: StoreHeartbeatControl;
  /**
   * Register a package's migrations (e.g. the swarm's) and apply its pending steps now, once
   * across all processes and hosts (SQLite: `BEGIN IMMEDIATE`; Postgres: an advisory lock).
   */
  ensureMigrations(migrations: StoreMigrations): Promise<void>;
  /** Applied and pending versions of every registered namespace (what `bullswarm store status` shows). */
  migrationStatus(): Promise<MigrationStatus>;
  /** Apply every pending step of the registered namespaces (what `bullswarm store migrate` runs). */
  migrate(): Promise<AppliedMigration[]>;
  /**
   * A version that changes when another connection commits a write: poll it to learn that the
   * store changed (the dashboard's live updates), without reading any table. SQLite: the file's
   * `PRAGMA data_version` (any other process's commit). Postgres: the server's next transaction id
   * (`txid_snapshot_xmax`), which moves with every write transaction on the server — every
   * bullswarm host's, and also other databases' on a shared server (a page then fetches again
   * more often than needed, never less). One cheap statement; no trigger, nothing added to writes.
   */
  changeVersion(): Promise<string>;
  /** Stop the heartbeat and close the connection or pool; idempotent. */
  close(): Promise<void>;
}
