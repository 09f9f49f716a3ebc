import { FencingError } from '../errors/fencing-error';
import { SwarmInputError } from '../errors/swarm-input-error';
import type { PlanLocation, PlanRef } from '../plans/plan-location';
import { checkAddress } from '../settings/agent-address';
import type { SwarmContext } from '../store/swarm-context';
import { journalLead } from './lead-effects';
import { fence, requireActive } from './lead-guards';
import type { LeadershipCheck, LeadRecord } from './lead-record';
import { logLeadEvent, selectLead, toLeadRecord } from './lead-rows';

/**
 * Fencing (see `LeadBook.assertCurrentEpoch`): the record's current epoch (and lead), else a
 * {@link FencingError} kept as a `fence-refused` event.
 */
export async function assertCurrentEpoch(
  context: SwarmContext,
  plan: PlanRef,
  options: { readonly epoch: number; readonly address?: string; readonly action?: string },
): Promise<LeadRecord> {
  if (!Number.isInteger(options.epoch) || options.epoch < 1) {
    throw new SwarmInputError({
      field: 'epoch',
      expected: 'a whole number from 1',
      received: String(options.epoch),
    });
  }
  const action = options.action ?? 'fenced action';
  const row = await selectLead(context.sql, plan);
  try {
    const active = requireActive(plan, row, action);
    fence(plan, active, action, options.address, options.epoch);
    return toLeadRecord(active);
  } catch (error) {
    if (FencingError.isInstance(error) && row)
      await recordFenceRefusal(context, plan, row.lead, options, action);
    throw error;
  }
}

/** Keeps a refused fenced action as a `fence-refused` event (at the epoch the actor believed it held). */
export async function recordFenceRefusal(
  context: SwarmContext,
  plan: PlanRef,
  lead: string,
  options: { readonly epoch: number; readonly address?: string },
  reason: string,
): Promise<void> {
  const now = context.clock();
  await context.tx(() =>
    logLeadEvent(
      context.sql,
      plan,
      {
        kind: 'fence-refused',
        epoch: options.epoch,
        lead,
        previousLead: undefined,
        actor: options.address,
        reason,
      },
      now,
    ),
  );
}

/**
 * A returning lead checks whether it still leads (see `LeadBook.checkLeadership`): when a higher
 * epoch exists (or another agent leads, or the plan was released) it steps down, recorded and
 * journalled.
 */
export async function checkLeadership(
  context: SwarmContext,
  plan: PlanLocation,
  options: { readonly address: string; readonly epoch: number },
): Promise<LeadershipCheck> {
  const address = checkAddress(options.address, 'address');
  const found = await selectLead(context.sql, plan);
  const row = found ?? requireActive(plan, found, 'lead check');
  const record = toLeadRecord(row);
  if (row.released_at === null && row.lead === address && row.epoch === options.epoch) {
    return { current: true, record };
  }
  // Nobody ever held an epoch above the record's: that is a wrong epoch, not a lead to step down.
  if (options.epoch > row.epoch) {
    throw new SwarmInputError({
      field: 'epoch',
      received: String(options.epoch),
      expected: `an epoch this plan has had (it is at epoch ${row.epoch}, lead ${row.lead})`,
    });
  }
  const why =
    row.released_at !== null
      ? `the plan was released at epoch ${row.epoch}`
      : row.epoch > options.epoch
        ? `epoch ${row.epoch} (lead ${row.lead}) is higher than ${options.epoch}`
        : `${row.lead} leads at epoch ${row.epoch}`;
  const now = context.clock();
  await context.tx(() =>
    logLeadEvent(
      context.sql,
      plan,
      {
        kind: 'step-down',
        epoch: options.epoch,
        lead: row.lead,
        previousLead: undefined,
        actor: address,
        reason: why,
      },
      now,
    ),
  );
  journalLead(
    plan,
    'lead.stepped-down',
    address,
    row.epoch,
    { heldEpoch: options.epoch, currentLead: row.lead, why },
    now,
  );
  return { current: false, steppedDown: true, record, why };
}
