import type { SqlSession } from '@bullswarm/store';
import type { PlanRef } from '../plans/plan-location';
import type { SwarmContext } from '../store/swarm-context';

/**
 * A plan parked because no declared account has room and none resets within its horizon
 * (swarm-autonomy, "When no account in the pool has room and none resets within the plan's
 * horizon, the swarm parks with the soonest reset recorded"; escalation class C7).
 */
export interface Park {
  readonly id: number;
  readonly plan: PlanRef;
  /** The task that needed an account (undefined: the plan as a whole). */
  readonly task: string | undefined;
  /** The kind of account asked for (`any`, a connector id or a provider family). */
  readonly kind: string;
  readonly parkedBy: string;
  readonly parkedAt: number;
  readonly horizonMs: number;
  /** The soonest reset known among the accounts without room (undefined: none is known). */
  readonly soonestReset: { readonly poolId: string; readonly at: number } | undefined;
  /** Why, in one sentence. */
  readonly reason: string;
  /** The C7 escalation raised for it (sent once). */
  readonly escalationId: number | undefined;
  /** Set when the plan moves again (an account was assigned, or the escalation was answered). */
  readonly resumedAt: number | undefined;
  readonly resumedBy: string | undefined;
}

/** The parks of plans: at most one open park per plan. All of the park SQL is in this file. */
export interface ParkBook {
  /** The plan's open park, if it is parked. */
  current(plan: PlanRef): Promise<Park | undefined>;
  /** Every park of a plan, oldest first. */
  list(plan: PlanRef): Promise<Park[]>;
}

interface ParkRow {
  id: number;
  plan_repo: string;
  plan_id: string;
  task_id: string | null;
  kind: string;
  parked_by: string;
  parked_at: number;
  horizon_ms: number;
  soonest_reset_at: number | null;
  soonest_reset_pool: string | null;
  reason: string;
  escalation_id: number | null;
  resumed_at: number | null;
  resumed_by: string | null;
}

function toPark(row: ParkRow): Park {
  return {
    id: row.id,
    plan: { repo: row.plan_repo, id: row.plan_id },
    task: row.task_id ?? undefined,
    kind: row.kind,
    parkedBy: row.parked_by,
    parkedAt: row.parked_at,
    horizonMs: row.horizon_ms,
    soonestReset:
      row.soonest_reset_at === null || row.soonest_reset_pool === null
        ? undefined
        : { poolId: row.soonest_reset_pool, at: row.soonest_reset_at },
    reason: row.reason,
    escalationId: row.escalation_id ?? undefined,
    resumedAt: row.resumed_at ?? undefined,
    resumedBy: row.resumed_by ?? undefined,
  };
}

/** The open park of a plan (inside or outside a transaction). */
export async function openParkIn(sql: SqlSession, plan: PlanRef): Promise<Park | undefined> {
  const row = await sql.get<ParkRow>(
    'SELECT * FROM swarm_parks WHERE plan_repo = ? AND plan_id = ? AND resumed_at IS NULL ORDER BY id DESC LIMIT 1',
    [plan.repo, plan.id],
  );
  return row ? toPark(row) : undefined;
}

/** Records a park (inside the caller's transaction); returns it. */
export async function insertParkIn(
  sql: SqlSession,
  park: Omit<Park, 'id' | 'resumedAt' | 'resumedBy' | 'escalationId'>,
): Promise<Park> {
  const row = await sql.get<ParkRow>(
    `INSERT INTO swarm_parks (plan_repo, plan_id, task_id, kind, parked_by, parked_at, horizon_ms,
       soonest_reset_at, soonest_reset_pool, reason)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    [
      park.plan.repo,
      park.plan.id,
      park.task ?? null,
      park.kind,
      park.parkedBy,
      park.parkedAt,
      park.horizonMs,
      park.soonestReset?.at ?? null,
      park.soonestReset?.poolId ?? null,
      park.reason,
    ],
  );
  return toPark(row!);
}

/** Links a park to the C7 escalation raised for it. */
export async function linkParkEscalationIn(
  sql: SqlSession,
  parkId: number,
  escalationId: number,
): Promise<void> {
  await sql.exec('UPDATE swarm_parks SET escalation_id = ? WHERE id = ?', [escalationId, parkId]);
}

/** Lifts the plan's open park, if any (inside the caller's transaction); returns it as lifted. */
export async function resumeParkIn(
  sql: SqlSession,
  plan: PlanRef,
  by: string,
  now: number,
): Promise<Park | undefined> {
  const open = await openParkIn(sql, plan);
  if (!open) return undefined;
  const row = await sql.get<ParkRow>(
    'UPDATE swarm_parks SET resumed_at = ?, resumed_by = ? WHERE id = ? RETURNING *',
    [now, by, open.id],
  );
  return toPark(row!);
}

/** Creates the park book over a swarm context. */
export function createParkBook(context: SwarmContext): ParkBook {
  const { sql } = context;
  return {
    current: (plan) => openParkIn(sql, plan),
    async list(plan) {
      return (
        await sql.query<ParkRow>(
          'SELECT * FROM swarm_parks WHERE plan_repo = ? AND plan_id = ? ORDER BY id',
          [plan.repo, plan.id],
        )
      ).map(toPark);
    },
  };
}
