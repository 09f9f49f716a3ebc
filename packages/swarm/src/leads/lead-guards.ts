import { FencingError } from '../errors/fencing-error';
import { LeadRecordError } from '../errors/lead-record-error';
import { type PlanRef, planLabel } from '../plans/plan-location';
import type { LeadRow } from './lead-rows';

/**
 * The record a lead action needs: present and not released.
 * @throws LeadRecordError `no-record`; FencingError when the plan was released.
 */
export function requireActive(plan: PlanRef, row: LeadRow | undefined, action: string): LeadRow {
  if (!row) {
    throw new LeadRecordError({
      plan: planLabel(plan),
      reason: 'no-record',
      message: `${action}: plan ${planLabel(plan)} has no lead record (its lead claims it first)`,
    });
  }
  if (row.released_at !== null) {
    throw new FencingError({
      plan: planLabel(plan),
      action,
      currentEpoch: row.epoch,
      why: 'the plan was released (it is done); a new lead claims it first',
    });
  }
  return row;
}

/**
 * Fencing: `epoch` (when given) must be the record's epoch and `address` (when given) its lead.
 * @throws FencingError naming the current epoch and lead.
 */
export function fence(
  plan: PlanRef,
  row: LeadRow,
  action: string,
  address: string | undefined,
  epoch: number | undefined,
): void {
  if (epoch !== undefined && epoch !== row.epoch) {
    throw new FencingError({
      plan: planLabel(plan),
      action,
      epoch,
      ...(address === undefined ? {} : { address }),
      currentEpoch: row.epoch,
      currentLead: row.lead,
      why:
        epoch < row.epoch
          ? `epoch ${epoch} is older than the current epoch ${row.epoch}: a lead at a lower epoch steps down`
          : `epoch ${epoch} does not exist yet`,
    });
  }
  if (address !== undefined && address !== row.lead) {
    throw new FencingError({
      plan: planLabel(plan),
      action,
      ...(epoch === undefined ? {} : { epoch }),
      address,
      currentEpoch: row.epoch,
      currentLead: row.lead,
      why: `${address} is not the lead of this plan`,
    });
  }
}
