import type { StoreMigrations } from './migrations';

/** The namespace of the store's own tables. */
export const STORE_NAMESPACE = 'store';

/**
 * Step 1 on Postgres: the same tables as the SQLite step, with Postgres's types — epoch-ms times
 * as BIGINT, REAL as DOUBLE PRECISION — and a `rowid` column where the books order by insertion
 * (SQLite has its own). Steps after it are portable.
 */
const postgresStepOne = `
    CREATE TABLE inflight (
      id TEXT PRIMARY KEY,
      pool TEXT NOT NULL,
      action TEXT NOT NULL,
      lane TEXT,
      tier TEXT,
      started_at BIGINT NOT NULL,
      expected_minutes DOUBLE PRECISION,
      pid INTEGER NOT NULL,
      worker_pid INTEGER,
      host TEXT NOT NULL,
      pid_start_time TEXT
    );
    CREATE INDEX inflight_pool ON inflight (pool, started_at);
    CREATE INDEX inflight_host ON inflight (host);

    CREATE TABLE runs (
      rowid BIGSERIAL,
      id TEXT PRIMARY KEY,
      pool TEXT NOT NULL,
      tier TEXT NOT NULL,
      lane TEXT NOT NULL,
      action TEXT NOT NULL,
      started_at BIGINT NOT NULL,
      ended_at BIGINT NOT NULL,
      stalled INTEGER NOT NULL,
      outcome TEXT NOT NULL,
      worker_minutes DOUBLE PRECISION NOT NULL,
      model TEXT,
      failure_kind TEXT
    );
    CREATE INDEX runs_pool_tier_started ON runs (pool, tier, started_at);
    CREATE INDEX runs_pool_started ON runs (pool, started_at);
    CREATE INDEX runs_started ON runs (started_at);

    CREATE TABLE meter_readings (
      rowid BIGSERIAL PRIMARY KEY,
      pool TEXT NOT NULL,
      window_kind TEXT NOT NULL,
      used_pct DOUBLE PRECISION NOT NULL,
      resets_at BIGINT,
      window_minutes DOUBLE PRECISION NOT NULL,
      read_at BIGINT NOT NULL,
      source TEXT NOT NULL
    );
    CREATE INDEX meter_readings_pool_window_read ON meter_readings (pool, window_kind, read_at);
    CREATE INDEX meter_readings_pool_read ON meter_readings (pool, read_at);
    CREATE INDEX meter_readings_read ON meter_readings (read_at);

    CREATE TABLE meter_cache (
      pool TEXT PRIMARY KEY,
      windows TEXT NOT NULL,
      read_at BIGINT NOT NULL,
      source TEXT NOT NULL,
      rate_limited INTEGER,
      meter_error TEXT,
      meter_hold_until BIGINT,
      failures INTEGER NOT NULL DEFAULT 0,
      force_reread INTEGER NOT NULL DEFAULT 0
    );

    CREATE TABLE meter_manual (
      pool TEXT PRIMARY KEY,
      windows TEXT NOT NULL,
      set_at BIGINT NOT NULL
    );

    CREATE TABLE probes (
      pool TEXT NOT NULL,
      model TEXT NOT NULL,
      ok INTEGER NOT NULL,
      reason TEXT,
      checked_at BIGINT NOT NULL,
      PRIMARY KEY (pool, model)
    );
    `;

/**
 * The store's own schema. Append-only: released steps are never edited.
 * Times are epoch milliseconds; booleans are 0/1; meter windows are JSON arrays of `MeterWindow`.
 * Each step is portable SQL or `{ sqlite, postgres }` (see `engine/sql-session.ts`).
 */
export const coreMigrations: StoreMigrations = {
  namespace: STORE_NAMESPACE,
  migrations: [
    {
      sqlite: `
    CREATE TABLE inflight (
      id TEXT PRIMARY KEY,
      pool TEXT NOT NULL,
      action TEXT NOT NULL,
      lane TEXT,
      tier TEXT,
      started_at INTEGER NOT NULL,
      expected_minutes REAL,
      pid INTEGER NOT NULL,
      worker_pid INTEGER,
      host TEXT NOT NULL,
      pid_start_time TEXT
    );
    CREATE INDEX inflight_pool ON inflight (pool, started_at);
    CREATE INDEX inflight_host ON inflight (host);

    CREATE TABLE runs (
      id TEXT PRIMARY KEY,
      pool TEXT NOT NULL,
      tier TEXT NOT NULL,
      lane TEXT NOT NULL,
      action TEXT NOT NULL,
      started_at INTEGER NOT NULL,
      ended_at INTEGER NOT NULL,
      stalled INTEGER NOT NULL,
      outcome TEXT NOT NULL,
      worker_minutes REAL NOT NULL,
      model TEXT,
      failure_kind TEXT
    );
    CREATE INDEX runs_pool_tier_started ON runs (pool, tier, started_at);
    CREATE INDEX runs_pool_started ON runs (pool, started_at);
    CREATE INDEX runs_started ON runs (started_at);

    CREATE TABLE meter_readings (
      pool TEXT NOT NULL,
      window_kind TEXT NOT NULL,
      used_pct REAL NOT NULL,
      resets_at INTEGER,
      window_minutes REAL NOT NULL,
      read_at INTEGER NOT NULL,
      source TEXT NOT NULL
    );
    CREATE INDEX meter_readings_pool_window_read ON meter_readings (pool, window_kind, read_at);
    CREATE INDEX meter_readings_pool_read ON meter_readings (pool, read_at);
    CREATE INDEX meter_readings_read ON meter_readings (read_at);

    CREATE TABLE meter_cache (
      pool TEXT PRIMARY KEY,
      windows TEXT NOT NULL,
      read_at INTEGER NOT NULL,
      source TEXT NOT NULL,
      rate_limited INTEGER,
      meter_error TEXT,
      meter_hold_until INTEGER,
      failures INTEGER NOT NULL DEFAULT 0,
      force_reread INTEGER NOT NULL DEFAULT 0
    );

    CREATE TABLE meter_manual (
      pool TEXT PRIMARY KEY,
      windows TEXT NOT NULL,
      set_at INTEGER NOT NULL
    );

    CREATE TABLE probes (
      pool TEXT NOT NULL,
      model TEXT NOT NULL,
      ok INTEGER NOT NULL,
      reason TEXT,
      checked_at INTEGER NOT NULL,
      PRIMARY KEY (pool, model)
    );
    `,
      postgres: postgresStepOne,
    },
    // 2: the reader's full message beside meter_error (`pools --debug`, `pools --json`).
    'ALTER TABLE meter_cache ADD COLUMN meter_error_detail TEXT',
    // 3: the start time of the worker (the leader of its own process group), so the process that
    // reaps the entry of a dead dispatcher can end an orphaned worker, never a reused pid.
    'ALTER TABLE inflight ADD COLUMN worker_start_time TEXT;',
    // 4: hosts sharing one store. The dispatching process renews `heartbeat_at` of its entries
    // (store heartbeat); another host's entry is reaped when it is older than the TTL, never by a
    // pid check. NULL (an entry written before step 4) counts as `started_at`.
    // (No new index: the renewal's `WHERE host = ? AND pid = ?` uses inflight_host, and every
    // record and release would pay for one more.)
    'ALTER TABLE inflight ADD COLUMN heartbeat_at BIGINT;',
    // 5: ownership claims (one process owns a named thing, e.g. a workflow run): unique by the
    // primary key, judged like ledger entries (pid + start time on this host, heartbeat elsewhere).
    `CREATE TABLE store_claims (
      scope TEXT NOT NULL,
      name TEXT NOT NULL,
      host TEXT NOT NULL,
      pid INTEGER NOT NULL,
      pid_start_time TEXT,
      token TEXT NOT NULL,
      claimed_at BIGINT NOT NULL,
      heartbeat_at BIGINT NOT NULL,
      PRIMARY KEY (scope, name)
    );
    CREATE INDEX store_claims_host_pid ON store_claims (host, pid);`,
  ],
};
