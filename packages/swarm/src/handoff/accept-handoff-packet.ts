import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '@bullswarm/connectors/internal';
import { type HandoffMismatch, HandoffMismatchError } from '../errors/handoff-mismatch-error';
import { PlanFileError } from '../errors/plan-file-error';
import { readWorkState } from '../git/read-work-state';
import { appendJournal } from '../plans/journal';
import { parsePlanFile, planLocation, planRecordPrefixes } from '../plans/plan-location';
import { contractDigest } from '../plans/plan-schema';
import { checkAddress } from '../settings/agent-address';
import type { Swarm } from '../store/create-swarm';
import type { HandoffRecord } from './handoff-book';
import type { HandoffItem, HandoffPacket } from './handoff-packet-schema';
import { movedMerges } from './lead-packet';
import { readHandoffPacket } from './read-handoff-packet';

/** Options of {@link acceptHandoffPacket}. */
export interface AcceptHandoffPacketOptions {
  readonly swarm: Swarm;
  readonly packetPath: string;
  /** The successor's address. */
  readonly address: string;
  /** A directory inside the checkout the successor resumes in (default: the packet's checkout). */
  readonly checkout?: string;
}

/** An accepted packet. */
export interface AcceptedHandoffPacket {
  readonly packet: HandoffPacket;
  readonly record: HandoffRecord;
  /** `<packet>.accepted.json`: the acceptance record, beside the packet (mode 0600). */
  readonly acceptancePath: string;
  /** What the successor re-runs first: every item the packet lists as not verified. */
  readonly rerun: readonly HandoffItem[];
}

/**
 * Accepts a packet in a checkout. Every check runs and every difference is listed; on any
 * mismatch nothing is recorded ({@link HandoffMismatchError}):
 * - `plan`: the checkout has `plans/<id>/plan.json` with that id and belongs to the packet's repository;
 * - `contract`: the live contract's digest equals the packet's;
 * - `branch`, `head`: as git reports them now;
 * - `uncommitted`: the same uncommitted paths (the plan's own records left out);
 * - `pendingMerges[i]`: for a lead packet, each pending merge's branch still at the recorded head.
 *
 * Then, in one transaction, the acceptance is recorded and the task is claimed by the successor
 * (refused if the successor wrote the packet itself — hysteresis — or another successor accepted
 * it). The acceptance record is written beside the packet, the lead is notified, and the accept
 * is journalled as an observation (`handoff.accepted`).
 */
export async function acceptHandoffPacket(
  options: AcceptHandoffPacketOptions,
): Promise<AcceptedHandoffPacket> {
  const { swarm } = options;
  const address = checkAddress(options.address, 'address');
  const packetPath = canonical(options.packetPath);
  const packet = readHandoffPacket(packetPath);
  const stored = await swarm.handoffs.get(packetPath);
  if (!stored) {
    throw new PlanFileError({
      filePath: packetPath,
      problem:
        'no record of this packet in the store: accept packets written by `bullswarm handoff write` with the same BULLSWARM_HOME',
    });
  }
  const checkoutDir = options.checkout ?? packet.work.checkout;
  const work = readWorkState(checkoutDir, { excludePrefixes: planRecordPrefixes(packet.plan.id) });
  const mismatches: HandoffMismatch[] = [];
  const planFile = join(work.checkout, 'plans', packet.plan.id, 'plan.json');
  let liveDigest: string | undefined;
  if (!existsSync(planFile)) {
    mismatches.push({
      field: 'plan',
      packet: `${packet.plan.id}`,
      checkout: `no plans/${packet.plan.id}/plan.json in ${work.checkout}`,
    });
  } else {
    try {
      liveDigest = contractDigest(parsePlanFile(planFile, packet.plan.id).contract);
    } catch (error) {
      if (!PlanFileError.isInstance(error)) throw error;
      mismatches.push({ field: 'plan', packet: packet.plan.id, checkout: error.message });
    }
  }
  if (work.repositoryRoot !== packet.plan.repo) {
    mismatches.push({
      field: 'plan',
      packet: `repository ${packet.plan.repo}`,
      checkout: `repository ${work.repositoryRoot}`,
    });
  }
  if (liveDigest !== undefined && liveDigest !== packet.contract.digest) {
    mismatches.push({ field: 'contract', packet: packet.contract.digest, checkout: liveDigest });
  }
  if (work.branch !== packet.work.branch) {
    mismatches.push({ field: 'branch', packet: packet.work.branch, checkout: work.branch });
  }
  if (work.head !== packet.work.head) {
    mismatches.push({ field: 'head', packet: packet.work.head, checkout: work.head });
  }
  const expected = [...packet.work.uncommitted].sort();
  const actual = [...work.uncommitted];
  if (expected.join('\0') !== actual.join('\0')) {
    const missing = expected.filter((p) => !actual.includes(p));
    const extra = actual.filter((p) => !expected.includes(p));
    mismatches.push({
      field: 'uncommitted',
      packet: `[${expected.join(', ')}]`,
      checkout: `[${actual.join(', ')}]${missing.length > 0 ? ` (no longer uncommitted: ${missing.join(', ')})` : ''}${
        extra.length > 0 ? ` (newly uncommitted: ${extra.join(', ')})` : ''
      }`,
    });
  }
  mismatches.push(...movedMerges(packet, work.checkout));
  if (mismatches.length > 0) throw new HandoffMismatchError(packetPath, mismatches);

  const record = await swarm.handoffs.recordAccepted(packetPath, { by: address });
  const now = swarm.context.clock();
  const acceptancePath = packetPath.replace(/\.json$/, '') + '.accepted.json';
  writeFileAtomic(
    acceptancePath,
    `${JSON.stringify(
      {
        schema: 'dwp-handoff-acceptance/v1',
        packet: packetPath,
        acceptedBy: address,
        acceptedAt: new Date(now).toISOString(),
        checked: {
          plan: packet.plan.id,
          contract: packet.contract.digest,
          branch: work.branch,
          head: work.head,
          uncommitted: work.uncommitted,
        },
        rerun: packet.notVerified,
      },
      null,
      2,
    )}\n`,
    { mode: 0o600 },
  );
  const plan = planLocation(packet.plan);
  const lead = await swarm.leads.get(plan);
  appendJournal(
    plan.journalFile,
    {
      type: 'observation',
      event: 'handoff.accepted',
      plan: plan.id,
      by: address,
      ...(lead ? { epoch: lead.epoch } : {}),
      task: packet.task,
      packet: packetPath,
      acceptance: acceptancePath,
      head: work.head,
    },
    now,
  );
  if (lead && lead.releasedAt === undefined && lead.lead !== address) {
    await swarm.notices.send({
      to: lead.lead,
      from: address,
      plan,
      epoch: lead.epoch,
      kind: 'text',
      text: `accepted handoff ${packetPath}: resuming task ${packet.task} at ${work.head.slice(0, 12)}`,
    });
  }
  return { packet, record, acceptancePath, rerun: packet.notVerified };
}

function canonical(path: string): string {
  const absolute = resolve(path);
  return existsSync(absolute) ? realpathSync(absolute) : absolute;
}
