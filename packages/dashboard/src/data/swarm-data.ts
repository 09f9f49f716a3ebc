import { runtimeRedactor } from '@bullswarm/dispatch/routing';
import { createSwarm, loadPlan, planLocation, planStatus, readCapacity, type Swarm } from '@bullswarm/swarm';
import type { DashboardSource } from './dashboard-source';

/** How many of the newest notices the Swarm page lists. */
export const NOTICES_LISTED = 50;

/**
 * `GET /api/swarm`: the swarm records of the home. Per plan (every lead record): the lead, its
 * epoch, the effective succession, the record's history, the tasks' states (as `plan status
 * --json`, or the reason the plan file cannot be read) and its escalations. Then the account
 * leases, the agents, the newest notices, and the capacity verdict of every pool (as `capacity
 * --pool <id> --json`). A home without a store has no swarm records yet: every list is empty.
 */
export async function swarmJson(source: DashboardSource) {
  const runtime = await source.current();
  const store = runtime.store;
  if (store === undefined) {
    return { plans: [], leases: [], agents: [], notices: [], capacity: await capacityRows(source) };
  }
  const swarm: Swarm = await createSwarm({
    store,
    env: source.env,
    clock: runtime.clock,
    redactor: runtimeRedactor(runtime),
  });
  const plans = [];
  for (const record of await swarm.leads.list()) {
    const location = planLocation(record.plan);
    let tasks: unknown = null;
    let planProblem: string | null = null;
    const open = await swarm.escalations.list(record.plan, { open: true });
    try {
      const doc = loadPlan(location);
      tasks = planStatus(doc, await swarm.tasks.list(record.plan), open).map((s) => ({
        ...s,
        holder: s.holder ?? null,
      }));
    } catch (error) {
      planProblem = (error as Error).message;
    }
    plans.push({
      plan: record.label,
      repo: record.plan.repo,
      lead: record,
      succession: await swarm.leads.effectiveSuccession(record.plan),
      history: await swarm.leads.history(record.plan),
      tasks,
      planProblem,
      escalations: await swarm.escalations.list(record.plan),
      openEscalations: open.length,
    });
  }
  const notices = await swarm.notices.list();
  return {
    plans,
    leases: (await swarm.leases.list()).map((lease) => ({
      ...lease,
      poolLabel: runtime.label(lease.poolId),
    })),
    agents: await swarm.agents.list(),
    notices: notices.slice(Math.max(0, notices.length - NOTICES_LISTED)).reverse(),
    capacity: await capacityRows(source),
  };
}

async function capacityRows(source: DashboardSource) {
  const runtime = await source.current();
  const rows = [];
  for (const pool of runtime.state.pools) {
    try {
      rows.push(await readCapacity(runtime, { pool: pool.id }));
    } catch (error) {
      rows.push({
        poolId: pool.id,
        label: runtime.label(pool.id),
        verdict: 'unknown',
        reason: (error as Error).message,
      });
    }
  }
  return rows;
}
