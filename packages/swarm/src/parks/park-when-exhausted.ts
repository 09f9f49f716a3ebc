import { NoAccountError } from '../errors/no-account-error';
import type { PickResult } from '../pick/pick-account';
import { appendJournal } from '../plans/journal';
import type { PlanLocation } from '../plans/plan-location';
import type { Swarm } from '../store/create-swarm';
import { insertParkIn, linkParkEscalationIn, openParkIn, type Park, resumeParkIn } from './park-book';

/**
 * What to do when no declared account can take a task now (swarm-autonomy, "The pool is the
 * developer's" and C7):
 * - `held`: lanes hold accounts of this kind; one comes back when its lane releases it — wait.
 * - `wait`: an account without room resets within the plan's horizon (`until`) — wait for it.
 * - `park`: no account has room and none resets within the horizon (or no reset is known): the
 *   plan parks with the soonest reset recorded, and a C7 escalation goes to the developer once.
 * - `unavailable`: no declared account of the kind can take the task at all (none of that kind,
 *   none with a model for the tier…): not a capacity question, the error says why.
 */
export type NoAccountJudgement =
  | { readonly kind: 'held'; readonly held: readonly string[] }
  | { readonly kind: 'wait'; readonly until: { readonly poolId: string; readonly at: number } }
  | {
      readonly kind: 'park';
      readonly soonestReset: { readonly poolId: string; readonly at: number } | undefined;
    }
  | { readonly kind: 'unavailable' };

/**
 * Judges a pick that found no account (pure): `held` when lanes hold accounts of the kind; else
 * `wait` when the soonest reset among the accounts without room is at or before `now + horizonMs`;
 * else `park` when some account lacks room (its reset is past the horizon, or unknown); else
 * `unavailable`.
 */
export function judgeNoAccount(
  pick: Pick<PickResult, 'held' | 'noRoom' | 'soonestReset'>,
  horizonMs: number,
  now: number,
): NoAccountJudgement {
  if (pick.held.length > 0) return { kind: 'held', held: pick.held };
  if (pick.soonestReset !== undefined && pick.soonestReset.at <= now + horizonMs) {
    return { kind: 'wait', until: pick.soonestReset };
  }
  if (pick.noRoom.length > 0) return { kind: 'park', soonestReset: pick.soonestReset };
  return { kind: 'unavailable' };
}

/** A horizon for people, as plan files write it: `90m`, `5h`, `24h`, `36h`, `2d`, `3d12h` (days from two days up). */
export function formatHorizon(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const d = minutes >= 2 * 1440 ? Math.floor(minutes / 1440) : 0;
  const h = Math.floor((minutes - d * 1440) / 60);
  const m = minutes % 60;
  return `${d > 0 ? `${d}d` : ''}${h > 0 ? `${h}h` : ''}${m > 0 || minutes === 0 ? `${m}m` : ''}`;
}

/** The outcome of {@link parkWhenExhausted}: the judgement, and for `park` the plan's park. */
export type NoAccountOutcome =
  | Exclude<NoAccountJudgement, { kind: 'park' }>
  | { readonly kind: 'park'; readonly park: Park; readonly soonestReset: Park['soonestReset'] };

/**
 * When a pick for a plan found no account: judges it ({@link judgeNoAccount}) and, when no
 * account resets within the plan's horizon, parks the plan — one open park per plan, with the
 * soonest reset recorded, journalled (`swarm.parked`) and escalated once as C7 (capacity
 * exhausted, plan-wide; the lead is notified when it is not the one parking). A plan already
 * parked keeps its park: nothing is recorded or sent twice.
 */
export async function parkWhenExhausted(
  swarm: Swarm,
  plan: PlanLocation,
  options: {
    readonly pick: Pick<PickResult, 'kind' | 'held' | 'noRoom' | 'soonestReset'>;
    readonly horizonMs: number;
    /** Who parks (the lead). */
    readonly by: string;
    readonly task?: string;
  },
): Promise<NoAccountOutcome> {
  const { context } = swarm;
  const now = context.clock();
  const judged = judgeNoAccount(options.pick, options.horizonMs, now);
  if (judged.kind !== 'park') return judged;
  const horizon = formatHorizon(options.horizonMs);
  const reset =
    judged.soonestReset === undefined
      ? 'no reset is known'
      : `the soonest reset is ${new Date(judged.soonestReset.at).toISOString()} (${judged.soonestReset.poolId})`;
  const reason = `no declared account of kind ${options.pick.kind} has room${options.task === undefined ? '' : ` for task ${options.task}`} and none resets within the plan's horizon ${horizon}: ${reset}`;
  const { park, created } = await context.tx(async () => {
    const open = await openParkIn(context.sql, plan);
    if (open) return { park: open, created: false };
    return {
      park: await insertParkIn(context.sql, {
        plan,
        task: options.task,
        kind: options.pick.kind,
        parkedBy: options.by,
        parkedAt: now,
        horizonMs: options.horizonMs,
        soonestReset: judged.soonestReset,
        reason,
      }),
      created: true,
    };
  });
  if (!created) return { kind: 'park', park, soonestReset: park.soonestReset };
  appendJournal(
    plan.journalFile,
    {
      type: 'observation',
      event: 'swarm.parked',
      plan: plan.id,
      by: options.by,
      park: park.id,
      ...(options.task === undefined ? {} : { task: options.task }),
      horizon,
      soonestReset: judged.soonestReset === undefined ? null : new Date(judged.soonestReset.at).toISOString(),
      soonestResetPool: judged.soonestReset?.poolId ?? null,
    },
    now,
    context.redact,
  );
  const open = (await swarm.escalations.list(plan, { open: true })).find(
    (e) => e.class === 'C7' && e.task === undefined,
  );
  const lead = await swarm.leads.get(plan);
  const escalation =
    open ??
    (await swarm.escalations.raise(plan, {
      class: 'C7',
      text: `capacity exhausted, the plan is parked: ${reason}`,
      by: options.by,
      ...(lead && lead.releasedAt === undefined && lead.lead !== options.by ? { notify: lead.lead } : {}),
    }));
  await linkParkEscalationIn(context.sql, park.id, escalation.id);
  return { kind: 'park', park: { ...park, escalationId: escalation.id }, soonestReset: park.soonestReset };
}

/**
 * The plan moves again (an account was assigned to it): its open park, if any, is lifted and
 * journalled (`swarm.resumed`). Its C7 escalation stays for the developer to answer.
 */
export async function resumeAfterPark(
  swarm: Swarm,
  plan: PlanLocation,
  by: string,
  poolId: string,
): Promise<Park | undefined> {
  const { context } = swarm;
  const now = context.clock();
  const lifted = await context.tx(() => resumeParkIn(context.sql, plan, by, now));
  if (lifted) {
    appendJournal(
      plan.journalFile,
      {
        type: 'observation',
        event: 'swarm.resumed',
        plan: plan.id,
        by,
        park: lifted.id,
        why: `an account has room again: ${poolId}`,
      },
      now,
      context.redact,
    );
  }
  return lifted;
}

/**
 * The error for a pick that found no account, carrying what the swarm does about it (the
 * outcome of {@link parkWhenExhausted} when a plan was judged), in one more sentence.
 */
export function noAccountError(pick: PickResult, outcome?: NoAccountOutcome): NoAccountError {
  const iso = (at: number) => new Date(at).toISOString();
  const then =
    outcome === undefined
      ? undefined
      : outcome.kind === 'held'
        ? `wait: lanes hold ${outcome.held.join(', ')}, back when released`
        : outcome.kind === 'wait'
          ? `wait: ${outcome.until.poolId} resets at ${iso(outcome.until.at)}, within the plan's horizon`
          : outcome.kind === 'park'
            ? `the plan is parked (park #${outcome.park.id}, escalation #${outcome.park.escalationId ?? '-'} C7): ${outcome.park.reason}`
            : undefined;
  return new NoAccountError({
    kind: pick.kind,
    leftOut: pick.leftOut,
    reason: pick.reason,
    ...(pick.backAt === undefined ? {} : { backAt: pick.backAt }),
    ...(outcome === undefined ? {} : { outcome: outcome.kind }),
    ...(pick.soonestReset === undefined ? {} : { soonestReset: pick.soonestReset }),
    ...(outcome?.kind === 'park'
      ? {
          parkId: outcome.park.id,
          ...(outcome.park.escalationId === undefined ? {} : { escalationId: outcome.park.escalationId }),
        }
      : {}),
    ...(then === undefined ? {} : { then }),
  });
}
