import type { AgentRegistry } from '../agents/agent-registry';
import { FencingError } from '../errors/fencing-error';
import { LeadRecordError } from '../errors/lead-record-error';
import { SwarmInputError } from '../errors/swarm-input-error';
import { type Notice, timedOutAsksIn } from '../notices/notice-box';
import { type PlanLocation, planLabel } from '../plans/plan-location';
import { checkAddress } from '../settings/agent-address';
import { parseList, type SwarmContext } from '../store/swarm-context';
import { effectiveSuccessionOf } from './effective-succession';
import { journalLead, notifyLeadChange } from './lead-effects';
import { requireActive } from './lead-guards';
import { type LeadRecord, TAKEOVER_REASONS, type TakeoverReason } from './lead-record';
import { epochStartedAt, logLeadEvent, moveLead, selectLead, toLeadRecord } from './lead-rows';

/** How many asks to the lead must be unanswered past their timeout before `ask_timeout` holds ("times out twice"). */
export const ASK_TIMEOUTS_FOR_TAKEOVER = 2;

function describeAsks(asks: readonly Notice[]): string {
  return asks
    .map((ask) => `#${ask.id} from ${ask.from ?? '-'} timed out ${new Date(ask.timeoutAt!).toISOString()}`)
    .join(', ');
}

/** Options of `LeadBook.takeover`. */
export interface TakeoverOptions {
  readonly address: string;
  readonly epoch?: number;
  readonly reason?: TakeoverReason;
}

/**
 * An unplanned takeover (see `LeadBook.takeover`): compare-and-set at the epoch read, refused
 * while the lead is reachable (unless asserted), to an address outside the effective succession,
 * or while an earlier entry is reachable.
 */
export async function takeoverLead(
  context: SwarmContext,
  agents: AgentRegistry,
  plan: PlanLocation,
  options: TakeoverOptions,
): Promise<LeadRecord> {
  const { sql } = context;
  const address = checkAddress(options.address, 'address');
  const reason = options.reason ?? 'unreachable';
  if (!TAKEOVER_REASONS.includes(reason)) {
    throw new SwarmInputError({
      field: 'reason',
      expected: TAKEOVER_REASONS.join(', '),
      received: reason,
    });
  }
  const read = requireActive(plan, await selectLead(sql, plan), 'lead takeover');
  const expected = options.epoch ?? read.epoch;
  const now = context.clock();
  const result = await context.tx(async () => {
    const row = requireActive(plan, await selectLead(sql, plan), 'lead takeover');
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
    const lead = await agents.reachability(row.lead);
    let timedOut: readonly Notice[] = [];
    if (reason === 'ask_timeout') {
      // Checked, not asserted: two asks to the lead at this epoch, unanswered past their timeout.
      timedOut = await timedOutAsksIn(sql, {
        to: row.lead,
        plan,
        since: (await epochStartedAt(sql, plan, row.epoch)) ?? row.claimed_at,
        now,
      });
      if (timedOut.length < ASK_TIMEOUTS_FOR_TAKEOVER) {
        throw new LeadRecordError({
          plan: planLabel(plan),
          reason: 'asks-not-timed-out',
          lead: row.lead,
          epoch: row.epoch,
          message: `takeover refused: ask_timeout needs ${ASK_TIMEOUTS_FOR_TAKEOVER} asks to the lead ${row.lead} (epoch ${row.epoch}) unanswered past their timeout; the notices show ${timedOut.length}${timedOut.length > 0 ? ` (${describeAsks(timedOut)})` : ''}`,
        });
      }
    }
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
    const candidates = (await effectiveSuccessionOf(row, agents, context.host)).map((c) => c.address);
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
      const state = await agents.reachability(earlier);
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
    const changes = await moveLead(
      sql,
      plan,
      { lead: address, fromEpoch: row.epoch, epoch, succession: succession.filter((a) => a !== address) },
      now,
    );
    if (changes !== 1) throw new Error('lead record changed inside its own transaction');
    const why =
      reason === 'unreachable'
        ? `lead unreachable: ${lead.why}`
        : reason === 'ask_timeout'
          ? `asks to ${row.lead} unanswered past their timeout: ${describeAsks(timedOut)}`
          : `asserted by ${address}: ${reason}`;
    await logLeadEvent(
      sql,
      plan,
      { kind: 'takeover', epoch, lead: address, previousLead: row.lead, actor: address, reason: why },
      now,
    );
    await notifyLeadChange(
      sql,
      {
        plan,
        recipients: [...parseList(row.lanes), ...succession, row.lead],
        exclude: address,
        text: `lead of ${planLabel(plan)} is ${address} at epoch ${epoch} (takeover from ${row.lead}: ${why})`,
        epoch,
        from: address,
      },
      now,
    );
    return { record: toLeadRecord((await selectLead(sql, plan))!), previous: row.lead, why };
  });
  journalLead(
    plan,
    'lead.takeover',
    address,
    result.record.epoch,
    { from: result.previous, to: address, epoch: result.record.epoch, reason: result.why },
    now,
  );
  return result.record;
}
