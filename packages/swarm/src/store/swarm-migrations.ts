import type { StoreMigrations } from '@bullswarm/store';

/** The store namespace of the swarm tables. */
export const SWARM_NAMESPACE = 'swarm';

/**
 * The swarm's tables in the shared store (append-only list: never edit a released step).
 *
 * - `swarm_agents`: addresses, their process and heartbeat (reachability).
 * - `swarm_leases` / `swarm_lease_events`: one lane per account, with a TTL renewed by heartbeats.
 * - `swarm_leads` / `swarm_lead_events`: the lead record per plan (epoch, succession, lanes) and
 *   every change; a partial unique index makes two holders of one epoch impossible.
 * - `swarm_notices`: one-way notices, read once.
 * - `swarm_task_claims` / `swarm_task_relinquished` / `swarm_task_done`: one executor per task,
 *   hysteresis after a handoff, completion.
 * - `swarm_handoffs`: packets written, launched and accepted.
 * - `swarm_escalations`: escalations C1–C7 and their answers.
 *
 * Step 2: `swarm_notices.timeout_at` (when an ask times out unanswered) and `swarm_parks` (a plan
 * parked because no declared account has room and none resets within its horizon).
 */
export const swarmMigrations: StoreMigrations = {
  namespace: SWARM_NAMESPACE,
  migrations: [
    `CREATE TABLE swarm_agents (
      address TEXT PRIMARY KEY,
      host TEXT NOT NULL,
      pid INTEGER,
      pid_start TEXT,
      pool_id TEXT,
      plan_repo TEXT,
      plan_id TEXT,
      registered_at INTEGER NOT NULL,
      heartbeat_at INTEGER NOT NULL,
      stopped_at INTEGER
    );
    CREATE TABLE swarm_leases (
      pool_id TEXT PRIMARY KEY,
      holder TEXT NOT NULL,
      owner TEXT NOT NULL,
      plan_repo TEXT,
      plan_id TEXT,
      task_id TEXT,
      ttl_ms INTEGER NOT NULL,
      acquired_at INTEGER NOT NULL,
      renewed_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    );
    CREATE INDEX swarm_leases_holder ON swarm_leases (holder);
    CREATE TABLE swarm_lease_events (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      pool_id TEXT NOT NULL,
      holder TEXT NOT NULL,
      owner TEXT NOT NULL,
      event TEXT NOT NULL,
      at INTEGER NOT NULL
    );
    CREATE TABLE swarm_leads (
      plan_repo TEXT NOT NULL,
      plan_id TEXT NOT NULL,
      lead TEXT NOT NULL,
      epoch INTEGER NOT NULL,
      succession TEXT NOT NULL,
      lanes TEXT NOT NULL,
      designate TEXT,
      claimed_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      released_at INTEGER,
      PRIMARY KEY (plan_repo, plan_id)
    );
    CREATE TABLE swarm_lead_events (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      plan_repo TEXT NOT NULL,
      plan_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      epoch INTEGER NOT NULL,
      lead TEXT,
      previous_lead TEXT,
      actor TEXT,
      reason TEXT,
      at INTEGER NOT NULL
    );
    CREATE UNIQUE INDEX swarm_lead_epochs ON swarm_lead_events (plan_repo, plan_id, epoch)
      WHERE kind IN ('claim', 'handover', 'takeover');
    CREATE TABLE swarm_notices (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      recipient TEXT NOT NULL,
      sender TEXT,
      plan_repo TEXT,
      plan_id TEXT,
      epoch INTEGER,
      kind TEXT NOT NULL,
      text TEXT NOT NULL,
      re INTEGER,
      created_at INTEGER NOT NULL,
      read_at INTEGER
    );
    CREATE INDEX swarm_notices_unread ON swarm_notices (recipient, read_at, id);
    CREATE TABLE swarm_task_claims (
      plan_repo TEXT NOT NULL,
      plan_id TEXT NOT NULL,
      task_id TEXT NOT NULL,
      holder TEXT NOT NULL,
      claimed_at INTEGER NOT NULL,
      PRIMARY KEY (plan_repo, plan_id, task_id)
    );
    CREATE TABLE swarm_task_relinquished (
      plan_repo TEXT NOT NULL,
      plan_id TEXT NOT NULL,
      task_id TEXT NOT NULL,
      holder TEXT NOT NULL,
      packet_path TEXT NOT NULL,
      at INTEGER NOT NULL,
      PRIMARY KEY (plan_repo, plan_id, task_id, holder)
    );
    CREATE TABLE swarm_task_done (
      plan_repo TEXT NOT NULL,
      plan_id TEXT NOT NULL,
      task_id TEXT NOT NULL,
      by TEXT NOT NULL,
      evidence TEXT NOT NULL,
      at INTEGER NOT NULL,
      PRIMARY KEY (plan_repo, plan_id, task_id)
    );
    CREATE TABLE swarm_handoffs (
      packet_path TEXT PRIMARY KEY,
      plan_repo TEXT NOT NULL,
      plan_id TEXT NOT NULL,
      task_id TEXT NOT NULL,
      author TEXT NOT NULL,
      author_pool TEXT,
      reason TEXT NOT NULL,
      written_at INTEGER NOT NULL,
      successor TEXT,
      successor_pool TEXT,
      launched_at INTEGER,
      accepted_by TEXT,
      accepted_at INTEGER
    );
    CREATE TABLE swarm_escalations (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      plan_repo TEXT NOT NULL,
      plan_id TEXT NOT NULL,
      task_id TEXT,
      class TEXT NOT NULL,
      text TEXT NOT NULL,
      raised_by TEXT NOT NULL,
      raised_at INTEGER NOT NULL,
      answer TEXT,
      answered_by TEXT,
      relayed_by TEXT,
      answered_at INTEGER
    );`,
    `ALTER TABLE swarm_notices ADD COLUMN timeout_at INTEGER;
    CREATE TABLE swarm_parks (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      plan_repo TEXT NOT NULL,
      plan_id TEXT NOT NULL,
      task_id TEXT,
      kind TEXT NOT NULL,
      parked_by TEXT NOT NULL,
      parked_at INTEGER NOT NULL,
      horizon_ms INTEGER NOT NULL,
      soonest_reset_at INTEGER,
      soonest_reset_pool TEXT,
      reason TEXT NOT NULL,
      escalation_id INTEGER,
      resumed_at INTEGER,
      resumed_by TEXT
    );
    CREATE INDEX swarm_parks_open ON swarm_parks (plan_repo, plan_id, resumed_at);`,
  ],
};
