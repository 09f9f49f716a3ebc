import { LeadRecordError } from '../errors/lead-record-error';
import { SwarmInputError } from '../errors/swarm-input-error';
import { loadPlan, type PlanLocation, planLabel } from '../plans/plan-location';
import { checkAddress } from '../settings/agent-address';
import { parseList, type SwarmContext } from '../store/swarm-context';
import { journalLead, notifyLeadChange } from './lead-effects';
import type { LeadRecord } from './lead-record';
import { logLeadEvent, refreshLead, selectLead, toLeadRecord, writeClaim } from './lead-rows';

/** Options of `LeadBook.claim`. */
export interface ClaimLeadOptions {
  readonly address: string;
  readonly succession?: readonly string[];
  readonly lanes?: readonly string[];
}

/**
 * Claims a plan (see `LeadBook.claim`): validates the plan file first, then in one transaction
 * starts a new record at epoch 1, claims a released one at the next epoch, or refreshes the lead's
 * own record (succession replaced when given, lanes added); another lead's active record is refused.
 */
export async function claimLead(
  context: SwarmContext,
  plan: PlanLocation,
  options: ClaimLeadOptions,
): Promise<{ readonly record: LeadRecord; readonly change: 'claimed' | 'refreshed' }> {
  const { sql } = context;
  const address = checkAddress(options.address, 'address');
  const succession = options.succession?.map((a) => checkAddress(a, 'succession'));
  const lanes = options.lanes?.map((a) => checkAddress(a, 'lanes')) ?? [];
  if (succession?.includes(address)) {
    throw new SwarmInputError({
      field: 'succession',
      expected: 'the agents that take over after the lead (not the lead itself)',
      received: succession.join(','),
    });
  }
  // The plan file is validated as `plan status` does, before anything is written.
  loadPlan(plan);
  const now = context.clock();
  const result = await context.tx(async () => {
    const row = await selectLead(sql, plan);
    if (row && row.released_at === null && row.lead !== address) {
      throw new LeadRecordError({
        plan: planLabel(plan),
        reason: 'held',
        lead: row.lead,
        epoch: row.epoch,
        message: `plan ${planLabel(plan)} is led by ${row.lead} at epoch ${row.epoch}: a lead never leads a plan another lead holds (a successor takes over from it instead)`,
      });
    }
    if (row && row.released_at === null) {
      const known = parseList(row.lanes);
      const added = lanes.filter((lane) => !known.includes(lane));
      await refreshLead(
        sql,
        plan,
        { succession: succession ?? parseList(row.succession), lanes: [...known, ...added] },
        now,
      );
      await logLeadEvent(
        sql,
        plan,
        {
          kind: 'refresh',
          epoch: row.epoch,
          lead: address,
          previousLead: undefined,
          actor: address,
          reason: undefined,
        },
        now,
      );
      await notifyLeadChange(
        sql,
        {
          plan,
          recipients: added,
          exclude: address,
          text: `lead of ${planLabel(plan)} is ${address} at epoch ${row.epoch}`,
          epoch: row.epoch,
          from: address,
        },
        now,
      );
      return { record: toLeadRecord((await selectLead(sql, plan))!), change: 'refreshed' as const };
    }
    const epoch = row ? row.epoch + 1 : 1;
    const nextSuccession = succession ?? [];
    await writeClaim(
      sql,
      plan,
      { existing: row !== undefined, lead: address, epoch, succession: nextSuccession, lanes },
      now,
    );
    await logLeadEvent(
      sql,
      plan,
      { kind: 'claim', epoch, lead: address, previousLead: row?.lead, actor: address, reason: undefined },
      now,
    );
    await notifyLeadChange(
      sql,
      {
        plan,
        recipients: [...lanes, ...nextSuccession],
        exclude: address,
        text: `lead of ${planLabel(plan)} is ${address} at epoch ${epoch} (claim)`,
        epoch,
        from: address,
      },
      now,
    );
    return { record: toLeadRecord((await selectLead(sql, plan))!), change: 'claimed' as const };
  });
  journalLead(
    plan,
    result.change === 'claimed' ? 'lead.claimed' : 'lead.refreshed',
    address,
    result.record.epoch,
    { lead: address, succession: result.record.succession, lanes: result.record.lanes },
    now,
  );
  return result;
}
