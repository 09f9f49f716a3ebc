import { SwarmInputError } from '../errors/swarm-input-error';
import { tryGit } from '../git/run-git';
import type { PlanRef } from '../plans/plan-location';
import type { Plan } from '../plans/plan-schema';
import { planStatus } from '../plans/plan-status';
import type { Swarm } from '../store/create-swarm';
import type { HandoffContent, HandoffLane, HandoffMerge, HandoffPacket } from './handoff-packet-schema';

/** The structured fields of a lead packet, as written. */
export interface LeadPacketFields {
  readonly lanes: HandoffLane[];
  readonly releaseOrder: string[];
  readonly pendingMerges: HandoffMerge[];
}

/**
 * The lane table as the plan's records show it, one row per task of the plan: who executes it
 * (else who finished it, else who handed it off last), that agent's account (its lease, else its
 * registration), and where the task stands (`planStatus`, with `handed-off` for a task whose last
 * executor wrote a packet nobody has accepted yet, and that packet).
 */
export async function laneTableOf(swarm: Swarm, plan: PlanRef, planDoc: Plan): Promise<HandoffLane[]> {
  const records = await swarm.tasks.list(plan);
  const statuses = planStatus(planDoc, records, await swarm.escalations.list(plan, { open: true }));
  const leases = await swarm.leases.list();
  const handoffs = await swarm.handoffs.list(plan);
  const lanes: HandoffLane[] = [];
  for (const status of statuses) {
    const record = records.find((r) => r.task === status.task);
    const gaveUp = record?.relinquishedBy.at(-1);
    const pending = handoffs.filter((h) => h.task === status.task && h.acceptedBy === undefined).at(-1);
    const address = status.holder ?? record?.done?.by ?? gaveUp?.address ?? null;
    const pool =
      address === null
        ? null
        : (leases.find((l) => l.holder === address)?.poolId ??
          (await swarm.agents.get(address))?.poolId ??
          null);
    const handedOff = status.holder === undefined && status.state !== 'done' && pending !== undefined;
    lanes.push({
      task: status.task,
      address,
      pool,
      state: handedOff ? 'handed-off' : status.state,
      ...(handedOff ? { packet: pending.packetPath } : {}),
    });
  }
  return lanes;
}

/**
 * Checks and completes what a lead author gave for the structured fields: each task named is a
 * task of the plan, the release order names each task once, and each pending merge's branches
 * exist in the checkout, its head read from git (a head given must be that one). Without
 * `content.lanes` the lane table is read from the records ({@link laneTableOf}).
 *
 * @throws SwarmInputError naming the field (`lanes[1].task`, `pendingMerges[0].head`, …).
 */
export async function leadPacketFields(
  swarm: Swarm,
  plan: PlanRef,
  planDoc: Plan,
  checkout: string,
  content: HandoffContent,
): Promise<LeadPacketFields> {
  const tasks = planDoc.tasks.map((t) => t.id);
  const checkTask = (field: string, task: string | undefined) => {
    if (task !== undefined && !tasks.includes(task)) {
      throw new SwarmInputError({
        field,
        expected: `a task of the plan (${tasks.join(', ')})`,
        received: task,
      });
    }
  };
  const lanes = content.lanes === undefined ? await laneTableOf(swarm, plan, planDoc) : [...content.lanes];
  lanes.forEach((lane, i) => {
    checkTask(`lanes[${i}].task`, lane.task);
  });
  const releaseOrder = [...(content.releaseOrder ?? [])];
  releaseOrder.forEach((task, i) => {
    checkTask(`releaseOrder[${i}]`, task);
    if (releaseOrder.indexOf(task) !== i) {
      throw new SwarmInputError({ field: `releaseOrder[${i}]`, expected: 'each task once', received: task });
    }
  });
  const headOf = (branch: string) => {
    const found = tryGit(checkout, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
    return found.status === 0 ? found.stdout.trim() : undefined;
  };
  const pendingMerges = (content.pendingMerges ?? []).map((merge, i): HandoffMerge => {
    checkTask(`pendingMerges[${i}].task`, merge.task);
    const head = headOf(merge.branch);
    if (head === undefined) {
      throw new SwarmInputError({
        field: `pendingMerges[${i}].branch`,
        expected: 'a branch of the repository (refs/heads/<branch>)',
        received: merge.branch,
      });
    }
    if (headOf(merge.into) === undefined) {
      throw new SwarmInputError({
        field: `pendingMerges[${i}].into`,
        expected: 'a branch of the repository (refs/heads/<branch>)',
        received: merge.into,
      });
    }
    if (merge.head !== undefined && merge.head !== head) {
      throw new SwarmInputError({
        field: `pendingMerges[${i}].head`,
        expected: `the head git shows for ${merge.branch} (${head})`,
        received: merge.head,
      });
    }
    return {
      branch: merge.branch,
      into: merge.into,
      head,
      ...(merge.task === undefined ? {} : { task: merge.task }),
    };
  });
  return { lanes, releaseOrder, pendingMerges };
}

/**
 * The pending merges of a lead packet whose branch is no longer at the head the packet recorded
 * (moved or gone), as accept lists them.
 */
export function movedMerges(
  packet: Pick<HandoffPacket, 'pendingMerges'>,
  checkout: string,
): { readonly field: string; readonly packet: string; readonly checkout: string }[] {
  return (packet.pendingMerges ?? []).flatMap((merge, i) => {
    const found = tryGit(checkout, [
      'rev-parse',
      '--verify',
      '--quiet',
      `refs/heads/${merge.branch}^{commit}`,
    ]);
    const now = found.status === 0 ? found.stdout.trim() : undefined;
    return now === merge.head
      ? []
      : [
          {
            field: `pendingMerges[${i}]`,
            packet: `${merge.branch} at ${merge.head}`,
            checkout: now === undefined ? `no branch ${merge.branch}` : `${merge.branch} at ${now}`,
          },
        ];
  });
}
