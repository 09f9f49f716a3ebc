import type { AgentRegistry } from '../agents/agent-registry';
import { FencingError } from '../errors/fencing-error';
import { LeadRecordError } from '../errors/lead-record-error';
import { SwarmInputError } from '../errors/swarm-input-error';
import { releasePlanLeasesIn } from '../leases/lease-book';
import { insertNotice } from '../notices/notice-box';
import { appendJournal } from '../plans/journal';
import { loadPlan, type PlanLocation, type PlanRef, planLabel } from '../plans/plan-location';
import { checkAddress } from '../settings/agent-address';
import { parseList, type SwarmContext } from '../store/swarm-context';

/** The lead record of one plan. */
export interface LeadRecord {
  readonly plan: PlanRef;
  /** `<repo-name>/<id>` */
  readonly label: string;
  readonly lead: string;
  /** Raised by every change of lead (claim after a release, handover, takeover). */
  readonly epoch: number;
  /** Who takes over, in order (the first reachable entry). */
  readonly succession: readonly string[];
  /** Every lane that was briefed (lead notices go to them). */
  readonly lanes: readonly string[];
  /** The successor-designate named at `low`, if any (also first in `succession`). */
  readonly designate: string | undefined;
  readonly claimedAt: number;
  readonly updatedAt: number;
  /** Set when the lead released the plan (the plan is done); no lead acts until a new claim. */
  readonly releasedAt: number | undefined;
}

/** One change of a lead record (or a refusal worth keeping), oldest first. */
export interface LeadEvent {
  readonly kind:
    | 'claim'
    | 'refresh'
    | 'designate'
    | 'handover'
    | 'takeover'
    | 'release'
    | 'step-down'
    | 'fence-refused';
  readonly epoch: number;
  readonly lead: string | undefined;
  readonly previousLead: string | undefined;
  readonly actor: string | undefined;
  readonly reason: string | undefined;
  readonly at: number;
}

/** Why a takeover happens: checked (`unreachable`) or asserted by the taker and recorded as such. */
export type TakeoverReason = 'unreachable' | 'usage_limit' | 'ask_timeout';

export const TAKEOVER_REASONS: readonly TakeoverReason[] = ['unreachable', 'usage_limit', 'ask_timeout'];

/** Where an entry of the effective succession comes from (see {@link LeadBook.effectiveSuccession}). */
export type SuccessionSource = 'succession' | 'designate' | 'lane' | 'host';

/** One candidate of the effective succession, in takeover order. */
export interface SuccessionCandidate {
  readonly address: string;
  readonly source: SuccessionSource;
}

/** The result of {@link LeadBook.checkLeadership}. */
export type LeadershipCheck =
  | { readonly current: true; readonly record: LeadRecord }
  | {
      readonly current: false;
      readonly steppedDown: true;
      readonly record: LeadRecord;
      readonly why: string;
    };

/**
 * Lead records: one per plan (keyed by repository and plan id), with an epoch, a succession list
 * and the lanes. Every change is a compare-and-set on the epoch inside one `BEGIN IMMEDIATE`
 * transaction, together with the lead notices it sends, so exactly one of two racing agents wins
 * and the loser gets a {@link FencingError}. Successions are journalled as observations.
 */
export interface LeadBook {
  get(plan: PlanRef): LeadRecord | undefined;
  /**
   * Claim a plan (before launching any lane). The plan file is validated first ({@link loadPlan}:
   * a `PlanFileError` naming the file and field, and nothing written). A new plan starts at epoch 1; a released plan is
   * claimed at the next epoch; the lead's own claim again refreshes the record (the succession
   * list is replaced when given, lanes are added, never removed). Another lead's active record is
   * refused (`held`).
   */
  claim(
    plan: PlanLocation,
    options: {
      readonly address: string;
      readonly succession?: readonly string[];
      readonly lanes?: readonly string[];
    },
  ): { readonly record: LeadRecord; readonly change: 'claimed' | 'refreshed' };
  /** The current lead's address (what the address `lead` resolves to). */
  resolve(plan: PlanRef): string;
  /** Name a successor-designate (at `low`): first in the succession list from now on. */
  designate(
    plan: PlanLocation,
    options: { readonly from: string; readonly designate: string; readonly epoch?: number },
  ): LeadRecord;
  /**
   * Planned handover: only the current lead (at the current epoch when `epoch` is given) hands
   * over; the epoch rises by one and every lane, the succession and the new lead are notified.
   */
  handover(
    plan: PlanLocation,
    options: { readonly from: string; readonly to: string; readonly epoch?: number },
  ): LeadRecord;
  /**
   * The effective succession of a plan, in takeover order (the default succession of the spec):
   *
   * 1. the explicit succession list (`--succession`, in its order);
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
  effectiveSuccession(plan: PlanRef): SuccessionCandidate[];
  /**
   * Unplanned takeover by the first reachable entry of the effective succession
   * ({@link LeadBook.effectiveSuccession}), at the epoch it read (`epoch`, else the record's epoch
   * when called): refused while the lead is reachable (unless the taker asserts `usage_limit` or
   * `ask_timeout`, recorded as asserted), when the taker is not in the effective succession, or
   * when an earlier entry is reachable (ties go to the earlier position).
   */
  takeover(
    plan: PlanLocation,
    options: { readonly address: string; readonly epoch?: number; readonly reason?: TakeoverReason },
  ): LeadRecord;
  /**
   * Release the plan (it is done): only the current lead. Leases it granted for this plan are
   * released in the same transaction, and every lane is notified.
   */
  release(plan: PlanLocation, options: { readonly address: string; readonly epoch?: number }): LeadRecord;
  /**
   * Fencing: throws {@link FencingError} unless `epoch` is the record's current epoch (and
   * `address`, when given, its lead). Merges, tags and releases call this first. Refusals are kept
   * as `fence-refused` events.
   */
  assertCurrentEpoch(
    plan: PlanRef,
    options: { readonly epoch: number; readonly address?: string; readonly action?: string },
  ): LeadRecord;
  /**
   * A returning lead checks whether it still leads at `epoch`. When a higher epoch exists (or
   * another agent leads) it steps down: the step-down is recorded and journalled, nothing else
   * changes.
   */
  checkLeadership(
    plan: PlanLocation,
    options: { readonly address: string; readonly epoch: number },
  ): LeadershipCheck;
  /** Every change of a plan's record, oldest first. */
  history(plan: PlanRef): LeadEvent[];
  /** The repositories whose lead records name a plan with this id. */
  knownRepos(id: string): string[];
  /** Every plan's lead record (released ones too), most recently changed first. */
  list(): LeadRecord[];
}

interface LeadRow {
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

function toRecord(row: LeadRow): LeadRecord {
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

/** Creates the lead book over a swarm context; reachability comes from `agents`. */
export function createLeadBook(context: SwarmContext, agents: AgentRegistry): LeadBook {
  const { db } = context;
  const select = (plan: PlanRef) =>
    db.prepare('SELECT * FROM swarm_leads WHERE plan_repo = ? AND plan_id = ?').get(plan.repo, plan.id) as
      | LeadRow
      | undefined;
  const logEvent = (plan: PlanRef, event: Omit<LeadEvent, 'at'>, at: number) =>
    db
      .prepare(
        `INSERT INTO swarm_lead_events (plan_repo, plan_id, kind, epoch, lead, previous_lead, actor, reason, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        plan.repo,
        plan.id,
        event.kind,
        event.epoch,
        event.lead ?? null,
        event.previousLead ?? null,
        event.actor ?? null,
        event.reason ?? null,
        at,
      );
  const notifyAll = (
    plan: PlanRef,
    recipients: Iterable<string>,
    exclude: string | undefined,
    text: string,
    epoch: number,
    from: string | undefined,
    now: number,
  ) => {
    const sent = new Set<string>();
    for (const to of recipients) {
      if (to === exclude || sent.has(to)) continue;
      sent.add(to);
      insertNotice(db, { to, from, plan, epoch, kind: 'lead-change', text }, now);
    }
  };
  const candidatesOf = (row: LeadRow): SuccessionCandidate[] => {
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
    const host =
      (
        db.prepare('SELECT host FROM swarm_agents WHERE address = ?').get(row.lead) as
          | { host: string }
          | undefined
      )?.host ?? context.host;
    const local = db
      .prepare(
        `SELECT address FROM swarm_agents WHERE host = ?
           AND (plan_id IS NULL OR (plan_repo = ? AND plan_id = ?))
         ORDER BY registered_at, address`,
      )
      .all(host, row.plan_repo, row.plan_id) as { address: string }[];
    for (const { address } of local) add(address, 'host');
    return out;
  };
  const requireActive = (plan: PlanRef, row: LeadRow | undefined, action: string): LeadRow => {
    if (!row) {
      throw new LeadRecordError({
        plan: planLabel(plan),
        reason: 'no-record',
        message: `${action}: plan ${planLabel(plan)} has no lead record (the lead runs \`bullswarm lead claim --plan ${plan.id} [--succession <A,B>]\` first)`,
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
  };
  const fence = (
    plan: PlanRef,
    row: LeadRow,
    action: string,
    address: string | undefined,
    epoch: number | undefined,
  ) => {
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
  };
  const journal = (
    plan: PlanLocation,
    event: string,
    by: string | undefined,
    epoch: number,
    data: object,
    now: number,
  ) =>
    appendJournal(
      plan.journalFile,
      { type: 'observation', event, plan: plan.id, ...(by === undefined ? {} : { by }), epoch, ...data },
      now,
    );

  const book: LeadBook = {
    get(plan) {
      const row = select(plan);
      return row ? toRecord(row) : undefined;
    },
    claim(plan, options) {
      const address = checkAddress(options.address, '--as');
      const succession = options.succession?.map((a) => checkAddress(a, '--succession'));
      const lanes = options.lanes?.map((a) => checkAddress(a, '--lanes')) ?? [];
      if (succession?.includes(address)) {
        throw new SwarmInputError({
          field: '--succession',
          expected: 'the agents that take over after the lead (not the lead itself)',
          received: succession.join(','),
        });
      }
      // The plan file is validated as `plan status` does, before anything is written.
      loadPlan(plan);
      const now = context.clock();
      const result = context.tx(() => {
        const row = select(plan);
        if (row && row.released_at === null && row.lead !== address) {
          throw new LeadRecordError({
            plan: planLabel(plan),
            reason: 'held',
            lead: row.lead,
            epoch: row.epoch,
            message: `plan ${planLabel(plan)} is led by ${row.lead} at epoch ${row.epoch}: a lead never leads a plan another lead holds (a successor takes over with \`bullswarm lead takeover\`)`,
          });
        }
        if (row && row.released_at === null) {
          const known = parseList(row.lanes);
          const added = lanes.filter((lane) => !known.includes(lane));
          const nextSuccession = succession ?? parseList(row.succession);
          db.prepare(
            'UPDATE swarm_leads SET succession = ?, lanes = ?, updated_at = ? WHERE plan_repo = ? AND plan_id = ?',
          ).run(
            JSON.stringify(nextSuccession),
            JSON.stringify([...known, ...added]),
            now,
            plan.repo,
            plan.id,
          );
          logEvent(
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
          notifyAll(
            plan,
            added,
            address,
            `lead of ${planLabel(plan)} is ${address} at epoch ${row.epoch}`,
            row.epoch,
            address,
            now,
          );
          return { record: toRecord(select(plan)!), change: 'refreshed' as const };
        }
        const epoch = row ? row.epoch + 1 : 1;
        const nextSuccession = succession ?? [];
        if (row) {
          db.prepare(
            `UPDATE swarm_leads SET lead = ?, epoch = ?, succession = ?, lanes = ?, designate = NULL, claimed_at = ?,
               updated_at = ?, released_at = NULL WHERE plan_repo = ? AND plan_id = ?`,
          ).run(
            address,
            epoch,
            JSON.stringify(nextSuccession),
            JSON.stringify(lanes),
            now,
            now,
            plan.repo,
            plan.id,
          );
        } else {
          db.prepare(
            `INSERT INTO swarm_leads (plan_repo, plan_id, lead, epoch, succession, lanes, claimed_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          ).run(
            plan.repo,
            plan.id,
            address,
            epoch,
            JSON.stringify(nextSuccession),
            JSON.stringify(lanes),
            now,
            now,
          );
        }
        logEvent(
          plan,
          { kind: 'claim', epoch, lead: address, previousLead: row?.lead, actor: address, reason: undefined },
          now,
        );
        notifyAll(
          plan,
          [...lanes, ...nextSuccession],
          address,
          `lead of ${planLabel(plan)} is ${address} at epoch ${epoch} (claim)`,
          epoch,
          address,
          now,
        );
        return { record: toRecord(select(plan)!), change: 'claimed' as const };
      });
      journal(
        plan,
        result.change === 'claimed' ? 'lead.claimed' : 'lead.refreshed',
        address,
        result.record.epoch,
        { lead: address, succession: result.record.succession, lanes: result.record.lanes },
        now,
      );
      return result;
    },
    effectiveSuccession(plan) {
      const row = select(plan);
      return row ? candidatesOf(row) : [];
    },
    resolve(plan) {
      return requireActive(plan, select(plan), 'resolve lead').lead;
    },
    designate(plan, options) {
      const from = checkAddress(options.from, '--as');
      const designate = checkAddress(options.designate, '<addr>');
      const now = context.clock();
      const record = context.tx(() => {
        const row = requireActive(plan, select(plan), 'lead designate');
        fence(plan, row, 'lead designate', from, options.epoch);
        if (designate === from) {
          throw new LeadRecordError({
            plan: planLabel(plan),
            reason: 'bad-target',
            message: 'the lead cannot designate itself as its successor',
          });
        }
        const succession = [designate, ...parseList(row.succession).filter((a) => a !== designate)];
        db.prepare(
          'UPDATE swarm_leads SET designate = ?, succession = ?, updated_at = ? WHERE plan_repo = ? AND plan_id = ?',
        ).run(designate, JSON.stringify(succession), now, plan.repo, plan.id);
        logEvent(
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
        insertNotice(
          db,
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
        return toRecord(select(plan)!);
      });
      journal(plan, 'lead.designated', from, record.epoch, { designate }, now);
      return record;
    },
    handover(plan, options) {
      const from = checkAddress(options.from, '--as');
      const to = checkAddress(options.to, '<addr>');
      const now = context.clock();
      const record = context.tx(() => {
        const row = requireActive(plan, select(plan), 'lead handover');
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
        db.prepare(
          `UPDATE swarm_leads SET lead = ?, epoch = ?, succession = ?, designate = NULL, updated_at = ?
           WHERE plan_repo = ? AND plan_id = ? AND epoch = ?`,
        ).run(to, epoch, JSON.stringify(succession), now, plan.repo, plan.id, row.epoch);
        logEvent(
          plan,
          { kind: 'handover', epoch, lead: to, previousLead: from, actor: from, reason: undefined },
          now,
        );
        notifyAll(
          plan,
          [...parseList(row.lanes), ...parseList(row.succession), to],
          from,
          `lead of ${planLabel(plan)} is ${to} at epoch ${epoch} (handover from ${from})`,
          epoch,
          from,
          now,
        );
        return toRecord(select(plan)!);
      });
      journal(plan, 'lead.handover', from, record.epoch, { from, to, epoch: record.epoch }, now);
      return record;
    },
    takeover(plan, options) {
      const address = checkAddress(options.address, '--as');
      const reason = options.reason ?? 'unreachable';
      if (!TAKEOVER_REASONS.includes(reason)) {
        throw new SwarmInputError({
          field: '--reason',
          expected: TAKEOVER_REASONS.join(', '),
          received: reason,
        });
      }
      const read = requireActive(plan, select(plan), 'lead takeover');
      const expected = options.epoch ?? read.epoch;
      const now = context.clock();
      const result = context.tx(() => {
        const row = requireActive(plan, select(plan), 'lead takeover');
        if (row.epoch !== expected) {
          throw new FencingError({
            plan: planLabel(plan),
            action: 'lead takeover',
            epoch: expected,
            address,
            currentEpoch: row.epoch,
            currentLead: row.lead,
            why: `the record is no longer at epoch ${expected}: ${row.lead} took the lead at epoch ${row.epoch} first`,
          });
        }
        if (row.lead === address) {
          throw new LeadRecordError({
            plan: planLabel(plan),
            reason: 'bad-target',
            lead: row.lead,
            epoch: row.epoch,
            message: `${address} already leads ${planLabel(plan)} at epoch ${row.epoch}`,
          });
        }
        const lead = agents.reachability(row.lead);
        if (reason === 'unreachable' && lead.reachable) {
          throw new LeadRecordError({
            plan: planLabel(plan),
            reason: 'lead-reachable',
            lead: row.lead,
            epoch: row.epoch,
            message: `takeover refused: the lead ${row.lead} is reachable (${lead.why}); a deputy never acts as lead while the lead is reachable (ask it, or hand over)`,
          });
        }
        const succession = parseList(row.succession);
        const candidates = candidatesOf(row).map((c) => c.address);
        const position = candidates.indexOf(address);
        if (position === -1) {
          throw new LeadRecordError({
            plan: planLabel(plan),
            reason: 'not-in-succession',
            lead: row.lead,
            epoch: row.epoch,
            message: `takeover refused: ${address} is not in the effective succession of ${planLabel(plan)} (${candidates.join(', ') || 'empty'}: the succession list, then the successor-designate, the lanes in launch order, and agents registered on the lead's host)`,
          });
        }
        for (const earlier of candidates.slice(0, position)) {
          const state = agents.reachability(earlier);
          if (state.reachable) {
            throw new LeadRecordError({
              plan: planLabel(plan),
              reason: 'earlier-successor-reachable',
              lead: row.lead,
              epoch: row.epoch,
              message: `takeover refused: ${earlier} comes before ${address} in the effective succession and is reachable (${state.why}); ties go to the earlier position`,
            });
          }
        }
        const epoch = row.epoch + 1;
        const change = db
          .prepare(
            `UPDATE swarm_leads SET lead = ?, epoch = ?, succession = ?, designate = NULL, updated_at = ?
             WHERE plan_repo = ? AND plan_id = ? AND epoch = ?`,
          )
          .run(
            address,
            epoch,
            JSON.stringify(succession.filter((a) => a !== address)),
            now,
            plan.repo,
            plan.id,
            row.epoch,
          );
        if (change.changes !== 1) throw new Error('lead record changed inside its own transaction');
        const why =
          reason === 'unreachable' ? `lead unreachable: ${lead.why}` : `asserted by ${address}: ${reason}`;
        logEvent(
          plan,
          { kind: 'takeover', epoch, lead: address, previousLead: row.lead, actor: address, reason: why },
          now,
        );
        notifyAll(
          plan,
          [...parseList(row.lanes), ...succession, row.lead],
          address,
          `lead of ${planLabel(plan)} is ${address} at epoch ${epoch} (takeover from ${row.lead}: ${why})`,
          epoch,
          address,
          now,
        );
        return { record: toRecord(select(plan)!), previous: row.lead, why };
      });
      journal(
        plan,
        'lead.takeover',
        address,
        result.record.epoch,
        { from: result.previous, to: address, epoch: result.record.epoch, reason: result.why },
        now,
      );
      return result.record;
    },
    release(plan, options) {
      const address = checkAddress(options.address, '--as');
      const now = context.clock();
      const result = context.tx(() => {
        const row = requireActive(plan, select(plan), 'lead release');
        fence(plan, row, 'lead release', address, options.epoch);
        db.prepare(
          'UPDATE swarm_leads SET released_at = ?, updated_at = ? WHERE plan_repo = ? AND plan_id = ?',
        ).run(now, now, plan.repo, plan.id);
        const leases = releasePlanLeasesIn(db, plan, address, now);
        logEvent(
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
        notifyAll(
          plan,
          [...parseList(row.lanes), ...parseList(row.succession)],
          address,
          `plan ${planLabel(plan)} was released by its lead ${address} at epoch ${row.epoch}: it is done`,
          row.epoch,
          address,
          now,
        );
        return { record: toRecord(select(plan)!), leases: leases.map((l) => l.poolId) };
      });
      journal(plan, 'lead.released', address, result.record.epoch, { releasedLeases: result.leases }, now);
      return result.record;
    },
    assertCurrentEpoch(plan, options) {
      if (!Number.isInteger(options.epoch) || options.epoch < 1) {
        throw new SwarmInputError({
          field: '--epoch',
          expected: 'a whole number from 1',
          received: String(options.epoch),
        });
      }
      const action = options.action ?? 'fenced action';
      const row = select(plan);
      try {
        const active = requireActive(plan, row, action);
        fence(plan, active, action, options.address, options.epoch);
        return toRecord(active);
      } catch (error) {
        if (FencingError.isInstance(error) && row) {
          const now = context.clock();
          context.tx(() =>
            logEvent(
              plan,
              {
                kind: 'fence-refused',
                epoch: options.epoch,
                lead: row.lead,
                previousLead: undefined,
                actor: options.address,
                reason: action,
              },
              now,
            ),
          );
        }
        throw error;
      }
    },
    checkLeadership(plan, options) {
      const address = checkAddress(options.address, '--as');
      const row = select(plan);
      if (!row) requireActive(plan, row, 'lead check');
      const record = toRecord(row!);
      if (row!.released_at === null && row!.lead === address && row!.epoch === options.epoch) {
        return { current: true, record };
      }
      // Nobody ever held an epoch above the record's: that is a wrong --epoch, not a lead to step down.
      if (options.epoch > row!.epoch) {
        throw new SwarmInputError({
          field: '--epoch',
          received: String(options.epoch),
          expected: `an epoch this plan has had (it is at epoch ${row!.epoch}, lead ${row!.lead})`,
        });
      }
      const why =
        row!.released_at !== null
          ? `the plan was released at epoch ${row!.epoch}`
          : row!.epoch > options.epoch
            ? `epoch ${row!.epoch} (lead ${row!.lead}) is higher than ${options.epoch}`
            : `${row!.lead} leads at epoch ${row!.epoch}`;
      const now = context.clock();
      context.tx(() =>
        logEvent(
          plan,
          {
            kind: 'step-down',
            epoch: options.epoch,
            lead: row!.lead,
            previousLead: undefined,
            actor: address,
            reason: why,
          },
          now,
        ),
      );
      journal(
        plan,
        'lead.stepped-down',
        address,
        row!.epoch,
        { heldEpoch: options.epoch, currentLead: row!.lead, why },
        now,
      );
      return { current: false, steppedDown: true, record, why };
    },
    history(plan) {
      const rows = db
        .prepare('SELECT * FROM swarm_lead_events WHERE plan_repo = ? AND plan_id = ? ORDER BY id')
        .all(plan.repo, plan.id) as {
        kind: LeadEvent['kind'];
        epoch: number;
        lead: string | null;
        previous_lead: string | null;
        actor: string | null;
        reason: string | null;
        at: number;
      }[];
      return rows.map((r) => ({
        kind: r.kind,
        epoch: r.epoch,
        lead: r.lead ?? undefined,
        previousLead: r.previous_lead ?? undefined,
        actor: r.actor ?? undefined,
        reason: r.reason ?? undefined,
        at: r.at,
      }));
    },
    knownRepos(id) {
      return (
        db
          .prepare('SELECT DISTINCT plan_repo FROM swarm_leads WHERE plan_id = ? ORDER BY plan_repo')
          .all(id) as {
          plan_repo: string;
        }[]
      ).map((r) => r.plan_repo);
    },
    list() {
      return (
        db
          .prepare('SELECT * FROM swarm_leads ORDER BY updated_at DESC, plan_repo, plan_id')
          .all() as LeadRow[]
      ).map(toRecord);
    },
  };
  return book;
}
