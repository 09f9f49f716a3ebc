import type { SqlSession } from '@bullswarm/store';
import { insertNotice } from '../notices/notice-box';
import { appendJournal } from '../plans/journal';
import type { PlanLocation, PlanRef } from '../plans/plan-location';

/**
 * Sends one `lead-change` notice to each recipient (once each, never to `exclude`), inside the
 * caller's transaction: a change of lead and its notices commit together.
 */
export async function notifyLeadChange(
  sql: SqlSession,
  notice: {
    readonly plan: PlanRef;
    readonly recipients: Iterable<string>;
    readonly exclude: string | undefined;
    readonly text: string;
    readonly epoch: number;
    readonly from: string | undefined;
  },
  now: number,
): Promise<void> {
  const sent = new Set<string>();
  for (const to of notice.recipients) {
    if (to === notice.exclude || sent.has(to)) continue;
    sent.add(to);
    await insertNotice(
      sql,
      {
        to,
        from: notice.from,
        plan: notice.plan,
        epoch: notice.epoch,
        kind: 'lead-change',
        text: notice.text,
      },
      now,
    );
  }
}

/** Journals a change of a lead record as an observation of the plan (`lead.claimed`, …). */
export function journalLead(
  plan: PlanLocation,
  event: string,
  by: string | undefined,
  epoch: number,
  data: object,
  now: number,
): void {
  appendJournal(
    plan.journalFile,
    { type: 'observation', event, plan: plan.id, ...(by === undefined ? {} : { by }), epoch, ...data },
    now,
  );
}
