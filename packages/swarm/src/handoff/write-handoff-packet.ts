import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '@bullswarm/connectors/internal';
import { FencingError } from '../errors/fencing-error';
import { LeadRecordError } from '../errors/lead-record-error';
import { SecretInPacketError } from '../errors/secret-in-packet-error';
import { SwarmInputError } from '../errors/swarm-input-error';
import { TaskClaimError } from '../errors/task-claim-error';
import { readWorkState } from '../git/read-work-state';
import { appendJournal } from '../plans/journal';
import { loadPlan, type PlanLocation, planLabel, planRecordPrefixes } from '../plans/plan-location';
import { contractDigest } from '../plans/plan-schema';
import { checkAddress } from '../settings/agent-address';
import type { SwarmEnv } from '../settings/swarm-env';
import type { Swarm } from '../store/create-swarm';
import { readTaskRecord } from '../tasks/task-book';
import {
  HANDOFF_REASONS,
  type HandoffContent,
  type HandoffPacket,
  type HandoffReason,
  handoffPacketSchema,
  LEAD_TASK,
} from './handoff-packet-schema';
import { leadPacketFields } from './lead-packet';
import { scanForSecrets } from './secret-scan';

/** Options of {@link writeHandoffPacket}. */
export interface WriteHandoffPacketOptions {
  readonly swarm: Swarm;
  readonly plan: PlanLocation;
  /** A directory inside the checkout the work is in (git is asked about it). */
  readonly checkout: string;
  /** A task of the plan, or `lead` for a lead packet. */
  readonly task: string;
  /** The step in flight. */
  readonly step: string;
  readonly reason: HandoffReason;
  /** The author's address. */
  readonly author: string;
  /** The author's account (`BULLSWARM_POOL`): excluded when the successor is picked. */
  readonly authorPool?: string;
  readonly content?: HandoffContent;
  /** The author's capacity when writing. */
  readonly capacity?: HandoffPacket['capacity'];
  /** The environment whose credential values the packet must not carry (default `process.env`). */
  readonly env?: SwarmEnv;
  /** Send `handoff <path>` to this address (the lead) as a notice; default: the plan's current lead. `false`: none. */
  readonly notify?: string | false;
}

/** A written packet. */
export interface WrittenHandoffPacket {
  readonly path: string;
  readonly packet: HandoffPacket;
  /** The notice id sent to the lead, if any. */
  readonly noticeId: number | undefined;
}

/**
 * Writes a `dwp-handoff/v1` packet under the plan's `analysis_results/handoff/` (mode 0600, temp
 * file + fsync + rename), after:
 * - reading where the work is from git itself (repository, checkout, branch, head, upstream and
 *   whether it is pushed, uncommitted paths — the plan's own records are left out);
 * - reading the live contract's digest, and the lead and epoch from the lead record;
 * - scanning every field for secrets ({@link scanForSecrets}, with the credential values of
 *   `env`): a packet with a secret is refused with {@link SecretInPacketError} and nothing is
 *   written or recorded.
 *
 * A lead packet (`task: "lead"`) is written only by the current lead (the lead record's holder
 * at its epoch; not after a release): anyone else gets a {@link FencingError} naming the lead and
 * epoch, and nothing is written, recorded or sent. It carries the lane table (given, else read
 * from the records), the release order and the pending merges (each branch's head read from git)
 * as structured fields (`leadPacketFields`); a lane's packet carrying them is refused.
 *
 * Then it records the packet and — hysteresis — the author's relinquishment of the task, in one
 * transaction: the author never takes that task again. Journalled as an observation
 * (`handoff.written`); `handoff <path>` is sent to the lead unless `notify: false`.
 */
export async function writeHandoffPacket(options: WriteHandoffPacketOptions): Promise<WrittenHandoffPacket> {
  const { swarm, plan } = options;
  const author = checkAddress(options.author, 'author');
  if (!HANDOFF_REASONS.includes(options.reason)) {
    throw new SwarmInputError({
      field: 'reason',
      expected: HANDOFF_REASONS.join(', '),
      received: options.reason,
    });
  }
  if (typeof options.step !== 'string' || options.step.trim() === '') {
    throw new SwarmInputError({ field: 'step', expected: 'the step in flight (a step of the task)' });
  }
  const planDoc = loadPlan(plan);
  const task = planDoc.tasks.find((t) => t.id === options.task);
  if (!task && options.task !== LEAD_TASK) {
    throw new SwarmInputError({
      field: 'task',
      expected: `a task of plan ${plan.label} (${planDoc.tasks.map((t) => t.id).join(', ')}) or "${LEAD_TASK}" for a lead packet`,
      received: options.task,
    });
  }
  if (task && task.steps.length > 0 && !task.steps.includes(options.step)) {
    throw new SwarmInputError({
      field: 'step',
      expected: `a step of task ${task.id}: ${task.steps.join(', ')}`,
      received: options.step,
    });
  }
  if (options.reason === 'lead_handover' && options.task !== LEAD_TASK) {
    throw new SwarmInputError({
      field: 'task',
      expected: `"${LEAD_TASK}" for a lead_handover packet`,
      received: options.task,
    });
  }
  const holder = (await readTaskRecord(swarm.context.sql, plan, options.task)).holder;
  if (holder !== undefined && holder !== author) {
    throw new TaskClaimError({
      plan: planLabel(plan),
      task: options.task,
      address: author,
      reason: 'held',
      holder,
      message: `task ${options.task} of ${planLabel(plan)} is executed by ${holder}, not ${author}: only its executor writes its packet`,
    });
  }
  const record = await swarm.leads.get(plan);
  if (options.task === LEAD_TASK) {
    if (!record) {
      throw new LeadRecordError({
        plan: planLabel(plan),
        reason: 'no-record',
        message: `a lead packet of ${planLabel(plan)} is written only by its current lead, and the plan has no lead record`,
      });
    }
    if (record.releasedAt !== undefined || record.lead !== author) {
      throw new FencingError({
        plan: planLabel(plan),
        action: 'write a lead packet',
        address: author,
        currentEpoch: record.epoch,
        ...(record.releasedAt === undefined ? { currentLead: record.lead } : {}),
        why:
          record.releasedAt === undefined
            ? `only the current lead ${record.lead} (epoch ${record.epoch}) writes a lead packet, not ${author}`
            : `the plan was released at epoch ${record.epoch}: nobody writes a lead packet`,
      });
    }
  }
  const content = options.content ?? {};
  const leadOnly = (['lanes', 'releaseOrder', 'pendingMerges'] as const).find(
    (f) => content[f] !== undefined,
  );
  if (options.task !== LEAD_TASK && leadOnly !== undefined) {
    throw new SwarmInputError({
      field: leadOnly,
      expected: `nothing: only a lead packet (task "${LEAD_TASK}") carries a lane table, a release order and pending merges`,
      received: JSON.stringify(content[leadOnly]),
    });
  }
  const work = readWorkState(options.checkout, { excludePrefixes: planRecordPrefixes(plan.id) });
  const lead =
    options.task === LEAD_TASK
      ? await leadPacketFields(swarm, plan, planDoc, work.checkout, content)
      : undefined;
  const now = swarm.context.clock();
  const draft = {
    schema: 'dwp-handoff/v1',
    plan: { id: plan.id, repo: plan.repo },
    contract: { digest: contractDigest(planDoc.contract), goal: planDoc.contract.goal },
    task: options.task,
    step: options.step,
    reason: options.reason,
    work: {
      repository: work.repository,
      checkout: work.checkout,
      branch: work.branch,
      head: work.head,
      upstream: work.upstream,
      pushed: work.pushed,
      uncommitted: [...work.uncommitted],
    },
    done: content.done ?? [],
    verified: content.verified ?? [],
    notVerified: content.notVerified ?? [],
    next: content.next ?? [],
    openAsks: content.openAsks ?? [],
    decisions: content.decisions ?? [],
    lead: record && record.releasedAt === undefined ? { address: record.lead, epoch: record.epoch } : null,
    author: { address: author, pool: options.authorPool ?? null },
    ...(options.capacity === undefined ? {} : { capacity: options.capacity }),
    ...(lead === undefined ? {} : lead),
    writtenAt: new Date(now).toISOString(),
  };
  const parsed = handoffPacketSchema.safeParse(draft);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SwarmInputError({ field: issue.path.join('.') || 'packet', expected: issue.message });
  }
  const packet = parsed.data;
  const findings = scanForSecrets(packet, options.env ?? process.env);
  if (findings.length > 0) throw new SecretInPacketError(findings);

  mkdirSync(plan.handoffDir, { recursive: true, mode: 0o700 });
  const stamp = packet.writtenAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const base = `${options.task}-${stamp}-${author.replace(/[^A-Za-z0-9._-]/g, '_')}`;
  let path = join(plan.handoffDir, `${base}.json`);
  for (let n = 2; existsSync(path); n++) path = join(plan.handoffDir, `${base}-${n}.json`);
  writeFileAtomic(path, `${JSON.stringify(packet, null, 2)}\n`, { mode: 0o600 });

  await swarm.handoffs.recordWritten(plan, {
    packetPath: path,
    task: options.task,
    author,
    ...(options.authorPool === undefined ? {} : { authorPool: options.authorPool }),
    reason: options.reason,
  });
  appendJournal(
    plan.journalFile,
    {
      type: 'observation',
      event: 'handoff.written',
      plan: plan.id,
      by: author,
      ...(packet.lead ? { epoch: packet.lead.epoch } : {}),
      task: options.task,
      step: options.step,
      reason: options.reason,
      packet: path,
      head: packet.work.head,
      ...(packet.capacity ? { capacity: packet.capacity.line } : {}),
    },
    now,
  );
  let noticeId: number | undefined;
  const notifyTo = options.notify === false ? undefined : (options.notify ?? packet.lead?.address);
  if (notifyTo !== undefined && notifyTo !== author) {
    noticeId = (
      await swarm.notices.send({
        to: notifyTo,
        from: author,
        plan,
        ...(packet.lead ? { epoch: packet.lead.epoch } : {}),
        kind: 'handoff',
        text: `handoff ${path}${packet.capacity ? ` ${packet.capacity.line}` : ''}`,
      })
    ).id;
  }
  return { path, packet, noticeId };
}
