import type { AgentRegistry } from '../agents/agent-registry';
import { parseList } from '../store/swarm-context';
import type { SuccessionCandidate, SuccessionSource } from './lead-record';
import type { LeadRow } from './lead-rows';

/**
 * The effective succession of a record, in takeover order (the default succession of the spec):
 * the explicit list, the successor-designate, the lanes in launch order, then the agents
 * registered on the lead's host (this host when the lead is not registered) that are bound to no
 * other plan, oldest first. Each address once, at its earliest place; never the current lead.
 */
export async function effectiveSuccessionOf(
  row: LeadRow,
  agents: AgentRegistry,
  thisHost: string,
): Promise<SuccessionCandidate[]> {
  const out: SuccessionCandidate[] = [];
  const seen = new Set<string>([row.lead]);
  const add = (address: string, source: SuccessionSource) => {
    if (seen.has(address)) return;
    seen.add(address);
    out.push({ address, source });
  };
  for (const a of parseList(row.succession)) add(a, 'succession');
  if (row.designate !== null) add(row.designate, 'designate');
  for (const a of parseList(row.lanes)) add(a, 'lane');
  const host = (await agents.hostOf(row.lead)) ?? thisHost;
  for (const address of await agents.onHost(host, { repo: row.plan_repo, id: row.plan_id }))
    add(address, 'host');
  return out;
}
