import type { AgentRegistry } from '../agents/agent-registry';
import type { FencingError } from '../errors/fencing-error';
import { LeadRecordError } from '../errors/lead-record-error';
import { releasePlanLeasesIn } from '../leases/lease-book';
import { insertNotice } from '../notices/notice-box';
import { type PlanLocation, type PlanRef, planLabel } from '../plans/plan-location';
import { checkAddress } from '../settings/agent-address';
import { parseList, type SwarmContext } from '../store/swarm-context';
import { effectiveSuccessionOf } from './effective-succession';
import { type ClaimLeadOptions, claimLead } from './lead-claim';
import { journalLead, notifyLeadChange } from './lead-effects';
import { assertCurrentEpoch, checkLeadership } from './lead-fencing';
import { fence, requireActive } from './lead-guards';
import type { LeadEvent, LeadershipCheck, LeadRecord, SuccessionCandidate } from './lead-record';
import {
  leadHistory,
  leadRepos,
  listLeads,
  logLeadEvent,
  moveLead,
  selectLead,
  toLeadRecord,
  writeDesignate,
  writeRelease,
} from './lead-rows';
import { type TakeoverOptions, takeoverLead } from './lead-takeover';

export type {
  LeadEvent,
  LeadershipCheck,
  LeadRecord,
  SuccessionCandidate,
  SuccessionSource,
  TakeoverReason,
} from './lead-record';
export { TAKEOVER_REASONS } from './lead-record';

/**
 * Lead records: one per plan (keyed by repository and plan id), with an epoch, a succession list
 * and the lanes. Every change is a compare-and-set on the epoch inside one `BEGIN IMMEDIATE`
 * transaction, together with the lead notices it sends, so exactly one of two racing agents wins
 * and the loser gets a {@link FencingError}. Successions are journalled as observations.
 */
export interface LeadBook {
  get(plan: PlanRef): Promise<LeadRecord | undefined>;
  /**
   * Claim a plan (before launching any lane). The plan file is validated first ({@link loadPlan}:
   * a `PlanFileError` naming the file and field, and nothing written). A new plan starts at epoch 1; a released plan is
   * claimed at the next epoch; the lead's own claim again refreshes the record (the succession
   * list is replaced when given, lanes are added, never removed). Another lead's active record is
   * refused (`held`).
   */
  claim(
    plan: PlanLocation,
    options: ClaimLeadOptions,
  ): Promise<{ readonly record: LeadRecord; readonly change: 'claimed' | 'refreshed' }>;
  /** The current lead's address (what the address `lead` resolves to). */
  resolve(plan: PlanRef): Promise<string>;
  /** Name a successor-designate (at `low`): first in the succession list from now on. */
  designate(
    plan: PlanLocation,
    options: { readonly from: string; readonly designate: string; readonly epoch?: number },
  ): Promise<LeadRecord>;
  /**
   * Planned handover: only the current lead (at the current epoch when `epoch` is given) hands
   * over; the epoch rises by one and every lane, the succession and the new lead are notified.
   */
  handover(
    plan: PlanLocation,
    options: { readonly from: string; readonly to: string; readonly epoch?: number },
  ): Promise<LeadRecord>;
  /**
   * The effective succession of a plan, in takeover order (the default succession of the spec):
   *
   * 1. the explicit succession list (`succession`, in its order);
   * 2. the successor-designate, if any (named with `lead designate`; it is also put first in the
   *    explicit list, so it only shows here when it was not);
   * 3. the record's lanes in launch (record) order;
   * 4. other agents registered on the same host as the lead (this host when the lead is not
   *    registered) that are not bound to another plan, oldest registration first.
   *
   * Each address appears once (at its earliest position); the current lead never appears. Agents on
   * other hosts (containers, other machines) come in only through the explicit list or as lanes.
   * Empty when the plan has no record.
   */
  effectiveSuccession(plan: PlanRef): Promise<SuccessionCandidate[]>;
  /**
   * Unplanned takeover by the first reachable entry of the effective succession
   * ({@link LeadBook.effectiveSuccession}), at the epoch it read (`epoch`, else the record's epoch
   * when called): refused while the lead is reachable — unless the taker asserts `usage_limit`
   * (recorded as asserted) or gives `ask_timeout`, which is checked: two asks to the lead at this
   * epoch unanswered past their timeout in the notice records — when the taker is not in the
   * effective succession, or
   * when an earlier entry is reachable (ties go to the earlier position).
   */
  takeover(plan: PlanLocation, options: TakeoverOptions): Promise<LeadRecord>;
  /**
   * Release the plan (it is done): only the current lead. Leases it granted for this plan are
   * released in the same transaction, and every lane is notified.
   */
  release(
    plan: PlanLocation,
    options: { readonly address: string; readonly epoch?: number },
  ): Promise<LeadRecord>;
  /**
   * Fencing: throws {@link FencingError} unless `epoch` is the record's current epoch (and
   * `address`, when given, its lead). Merges, tags and releases call this first. Refusals are kept
   * as `fence-refused` events.
   */
  assertCurrentEpoch(
    plan: PlanRef,
    options: { readonly epoch: number; readonly address?: string; readonly action?: string },
  ): Promise<LeadRecord>;
  /**
   * A returning lead checks whether it still leads at `epoch`. When a higher epoch exists (or
   * another agent leads) it steps down: the step-down is recorded and journalled, nothing else
   * changes.
   */
  checkLeadership(
    plan: PlanLocation,
    options: { readonly address: string; readonly epoch: number },
  ): Promise<LeadershipCheck>;
  /** Every change of a plan's record, oldest first. */
  history(plan: PlanRef): Promise<LeadEvent[]>;
  /** The repositories whose lead records name a plan with this id. */
  knownRepos(id: string): Promise<string[]>;
  /** Every plan's lead record (released ones too), most recently changed first. */
  list(): Promise<LeadRecord[]>;
}

/** Creates the lead book over a swarm context; reachability comes from `agents`. */
export function createLeadBook(context: SwarmContext, agents: AgentRegistry): LeadBook {
  const { sql } = context;
  const book: LeadBook = {
    async get(plan) {
      const row = await selectLead(sql, plan);
      return row ? toLeadRecord(row) : undefined;
    },
    claim: (plan, options) => claimLead(context, plan, options),
    async effectiveSuccession(plan) {
      const row = await selectLead(sql, plan);
      return row ? await effectiveSuccessionOf(row, agents, context.host) : [];
    },
    async resolve(plan) {
      return requireActive(plan, await selectLead(sql, plan), 'resolve lead').lead;
    },
    async designate(plan, options) {
      const from = checkAddress(options.from, 'from');
      const designate = checkAddress(options.designate, 'designate');
      const now = context.clock();
      const record = await context.tx(async () => {
        const row = requireActive(plan, await selectLead(sql, plan), 'lead designate');
        fence(plan, row, 'lead designate', from, options.epoch);
        if (designate === from) {
          throw new LeadRecordError({
            plan: planLabel(plan),
            reason: 'bad-target',
            message: 'the lead cannot designate itself as its successor',
          });
        }
        const succession = [designate, ...parseList(row.succession).filter((a) => a !== designate)];
        await writeDesignate(sql, plan, designate, succession, now);
        await logLeadEvent(
          sql,
          plan,
          {
            kind: 'designate',
            epoch: row.epoch,
            lead: from,
            previousLead: undefined,
            actor: from,
            reason: designate,
          },
          now,
        );
        await insertNotice(
          sql,
          {
            to: designate,
            from,
            plan,
            epoch: row.epoch,
            kind: 'lead-change',
            text: `you are the successor-designate of ${planLabel(plan)} (lead ${from}, epoch ${row.epoch})`,
          },
          now,
        );
        return toLeadRecord((await selectLead(sql, plan))!);
      });
      journalLead(plan, 'lead.designated', from, record.epoch, { designate }, now);
      return record;
    },
    async handover(plan, options) {
      const from = checkAddress(options.from, 'from');
      const to = checkAddress(options.to, 'to');
      const now = context.clock();
      const record = await context.tx(async () => {
        const row = requireActive(plan, await selectLead(sql, plan), 'lead handover');
        fence(plan, row, 'lead handover', from, options.epoch);
        if (to === from) {
          throw new LeadRecordError({
            plan: planLabel(plan),
            reason: 'bad-target',
            message: `${from} already leads ${planLabel(plan)}: hand over to another agent`,
          });
        }
        const epoch = row.epoch + 1;
        const succession = parseList(row.succession).filter((a) => a !== to);
        await moveLead(sql, plan, { lead: to, fromEpoch: row.epoch, epoch, succession }, now);
        await logLeadEvent(
          sql,
          plan,
          { kind: 'handover', epoch, lead: to, previousLead: from, actor: from, reason: undefined },
          now,
        );
        await notifyLeadChange(
          sql,
          {
            plan,
            recipients: [...parseList(row.lanes), ...parseList(row.succession), to],
            exclude: from,
            text: `lead of ${planLabel(plan)} is ${to} at epoch ${epoch} (handover from ${from})`,
            epoch,
            from,
          },
          now,
        );
        return toLeadRecord((await selectLead(sql, plan))!);
      });
      journalLead(plan, 'lead.handover', from, record.epoch, { from, to, epoch: record.epoch }, now);
      return record;
    },
    takeover: (plan, options) => takeoverLead(context, agents, plan, options),
    async release(plan, options) {
      const address = checkAddress(options.address, 'address');
      const now = context.clock();
      const result = await context.tx(async () => {
        const row = requireActive(plan, await selectLead(sql, plan), 'lead release');
        fence(plan, row, 'lead release', address, options.epoch);
        await writeRelease(sql, plan, now);
        const leases = await releasePlanLeasesIn(sql, plan, address, now);
        await logLeadEvent(
          sql,
          plan,
          {
            kind: 'release',
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
            recipients: [...parseList(row.lanes), ...parseList(row.succession)],
            exclude: address,
            text: `plan ${planLabel(plan)} was released by its lead ${address} at epoch ${row.epoch}: it is done`,
            epoch: row.epoch,
            from: address,
          },
          now,
        );
        return { record: toLeadRecord((await selectLead(sql, plan))!), leases: leases.map((l) => l.poolId) };
      });
      journalLead(
        plan,
        'lead.released',
        address,
        result.record.epoch,
        { releasedLeases: result.leases },
        now,
      );
      return result.record;
    },
    assertCurrentEpoch: (plan, options) => assertCurrentEpoch(context, plan, options),
    checkLeadership: (plan, options) => checkLeadership(context, plan, options),
    history: (plan) => leadHistory(sql, plan),
    knownRepos: (id) => leadRepos(sql, id),
    list: () => listLeads(sql),
  };
  return book;
}
