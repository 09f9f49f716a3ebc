import type { SqlSession } from '@bullswarm/store';
import { type PlanRef, planLabel } from '../plans/plan-location';
import { parseList } from '../store/swarm-context';
import type { LeadEvent, LeadRecord } from './lead-record';

/**
 * The lead book's SQL, all of it: the `swarm_leads` record per plan and its `swarm_lead_events`
 * history. Every write here runs inside the caller's transaction (`SwarmContext.tx`).
 */

/** A `swarm_leads` row. */
export interface LeadRow {
  plan_repo: string;
  plan_id: string;
  lead: string;
  epoch: number;
  succession: string;
  lanes: string;
  designate: string | null;
  claimed_at: number;
  updated_at: number;
  released_at: number | null;
}

export function toLeadRecord(row: LeadRow): LeadRecord {
  const plan = { repo: row.plan_repo, id: row.plan_id };
  return {
    plan,
    label: planLabel(plan),
    lead: row.lead,
    epoch: row.epoch,
    succession: parseList(row.succession),
    lanes: parseList(row.lanes),
    designate: row.designate ?? undefined,
    claimedAt: row.claimed_at,
    updatedAt: row.updated_at,
    releasedAt: row.released_at ?? undefined,
  };
}

export function selectLead(sql: SqlSession, plan: PlanRef): Promise<LeadRow | undefined> {
  return sql.get<LeadRow>('SELECT * FROM swarm_leads WHERE plan_repo = ? AND plan_id = ?', [
    plan.repo,
    plan.id,
  ]);
}

/** The lead's own claim again: new succession list and lanes, same lead and epoch. */
export async function refreshLead(
  sql: SqlSession,
  plan: PlanRef,
  lists: { readonly succession: readonly string[]; readonly lanes: readonly string[] },
  now: number,
): Promise<void> {
  await sql.exec(
    'UPDATE swarm_leads SET succession = ?, lanes = ?, updated_at = ? WHERE plan_repo = ? AND plan_id = ?',
    [JSON.stringify(lists.succession), JSON.stringify(lists.lanes), now, plan.repo, plan.id],
  );
}

/** A claim at `epoch`: a new record, or a released one started over. */
export async function writeClaim(
  sql: SqlSession,
  plan: PlanRef,
  claim: {
    readonly existing: boolean;
    readonly lead: string;
    readonly epoch: number;
    readonly succession: readonly string[];
    readonly lanes: readonly string[];
  },
  now: number,
): Promise<void> {
  const succession = JSON.stringify(claim.succession);
  const lanes = JSON.stringify(claim.lanes);
  if (claim.existing) {
    await sql.exec(
      `UPDATE swarm_leads SET lead = ?, epoch = ?, succession = ?, lanes = ?, designate = NULL, claimed_at = ?,
         updated_at = ?, released_at = NULL WHERE plan_repo = ? AND plan_id = ?`,
      [claim.lead, claim.epoch, succession, lanes, now, now, plan.repo, plan.id],
    );
  } else {
    await sql.exec(
      `INSERT INTO swarm_leads (plan_repo, plan_id, lead, epoch, succession, lanes, claimed_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [plan.repo, plan.id, claim.lead, claim.epoch, succession, lanes, now, now],
    );
  }
}

/** Names the successor-designate (first in the succession list). */
export async function writeDesignate(
  sql: SqlSession,
  plan: PlanRef,
  designate: string,
  succession: readonly string[],
  now: number,
): Promise<void> {
  await sql.exec(
    'UPDATE swarm_leads SET designate = ?, succession = ?, updated_at = ? WHERE plan_repo = ? AND plan_id = ?',
    [designate, JSON.stringify(succession), now, plan.repo, plan.id],
  );
}

/**
 * A change of lead (handover, takeover): compare-and-set on `fromEpoch`. Returns the number of
 * rows changed (1, or 0 when the record moved).
 */
export async function moveLead(
  sql: SqlSession,
  plan: PlanRef,
  change: {
    readonly lead: string;
    readonly fromEpoch: number;
    readonly epoch: number;
    readonly succession: readonly string[];
  },
  now: number,
): Promise<number> {
  const result = await sql.exec(
    `UPDATE swarm_leads SET lead = ?, epoch = ?, succession = ?, designate = NULL, updated_at = ?
     WHERE plan_repo = ? AND plan_id = ? AND epoch = ?`,
    [change.lead, change.epoch, JSON.stringify(change.succession), now, plan.repo, plan.id, change.fromEpoch],
  );
  return result.changes;
}

export async function writeRelease(sql: SqlSession, plan: PlanRef, now: number): Promise<void> {
  await sql.exec(
    'UPDATE swarm_leads SET released_at = ?, updated_at = ? WHERE plan_repo = ? AND plan_id = ?',
    [now, now, plan.repo, plan.id],
  );
}

export async function logLeadEvent(
  sql: SqlSession,
  plan: PlanRef,
  event: Omit<LeadEvent, 'at'>,
  at: number,
): Promise<void> {
  await sql.exec(
    `INSERT INTO swarm_lead_events (plan_repo, plan_id, kind, epoch, lead, previous_lead, actor, reason, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      plan.repo,
      plan.id,
      event.kind,
      event.epoch,
      event.lead ?? null,
      event.previousLead ?? null,
      event.actor ?? null,
      event.reason ?? null,
      at,
    ],
  );
}

/** When the record reached `epoch` (its claim, handover or takeover), if it did. */
export async function epochStartedAt(
  sql: SqlSession,
  plan: PlanRef,
  epoch: number,
): Promise<number | undefined> {
  const row = await sql.get<{ at: number }>(
    `SELECT at FROM swarm_lead_events WHERE plan_repo = ? AND plan_id = ? AND epoch = ?
       AND kind IN ('claim', 'handover', 'takeover') ORDER BY id DESC LIMIT 1`,
    [plan.repo, plan.id, epoch],
  );
  return row?.at;
}

export async function leadHistory(sql: SqlSession, plan: PlanRef): Promise<LeadEvent[]> {
  const rows = await sql.query<{
    kind: LeadEvent['kind'];
    epoch: number;
    lead: string | null;
    previous_lead: string | null;
    actor: string | null;
    reason: string | null;
    at: number;
  }>('SELECT * FROM swarm_lead_events WHERE plan_repo = ? AND plan_id = ? ORDER BY id', [plan.repo, plan.id]);
  return rows.map((r) => ({
    kind: r.kind,
    epoch: r.epoch,
    lead: r.lead ?? undefined,
    previousLead: r.previous_lead ?? undefined,
    actor: r.actor ?? undefined,
    reason: r.reason ?? undefined,
    at: r.at,
  }));
}

export async function leadRepos(sql: SqlSession, id: string): Promise<string[]> {
  const rows = await sql.query<{ plan_repo: string }>(
    'SELECT DISTINCT plan_repo FROM swarm_leads WHERE plan_id = ? ORDER BY plan_repo',
    [id],
  );
  return rows.map((r) => r.plan_repo);
}

export async function listLeads(sql: SqlSession): Promise<LeadRecord[]> {
  return (
    await sql.query<LeadRow>('SELECT * FROM swarm_leads ORDER BY updated_at DESC, plan_repo, plan_id')
  ).map(toLeadRecord);
}
