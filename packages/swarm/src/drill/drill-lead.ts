import { FencingError } from '../errors/fencing-error';
import { acceptHandoffPacket } from '../handoff/accept-handoff-packet';
import { LEAD_TASK } from '../handoff/handoff-packet-schema';
import { laneTableOf } from '../handoff/lead-packet';
import { writeHandoffPacket } from '../handoff/write-handoff-packet';
import type { RemoteCheck } from '../leads/remote-check';
import { runFenced } from '../leads/run-fenced';
import type { DrillKit } from './drill-kit';
import type { DrillCast } from './drill-lanes';
import type { DrillReport } from './drill-report';

/** What the lead phases proved. */
export interface DrillLeadOutcome {
  /** The epoch the new lead finished the plan at. */
  readonly epoch: number;
  readonly fencing: DrillReport['fencing'];
  /** What each fenced merge, push and tag read from the remote first. */
  readonly remoteChecks: readonly RemoteCheck[];
}

/** The lane tasks whose branches the new lead merges. */
const LANE_TASKS = ['api', 'cli', 'docs'] as const;

/**
 * Steps 6–9 of the drill: the lead is capped, writes a lead packet and hands over; the deputy
 * accepts it, re-checks the lanes, merges every lane branch and tags through fencing, runs every
 * gate on main; the returning lead steps down and its fenced tag is refused; the plan is released.
 */
export async function runLeadPhases(kit: DrillKit, cast: DrillCast): Promise<DrillLeadOutcome> {
  const { ctx, fail, capacity, gate, inbox } = kit;
  const { plan, planDoc, swarm, say } = ctx;
  const { lead, deputy, laneA, laneB, laneC, successor, lanePacket } = cast;
  // ---- 6. the lead is capped: lead packet, handover ---------------------------------------------
  await inbox(lead);
  lead.env.BULLSWARM_CAPACITY_CAP = `@${lead.label}=8`;
  say(`drill caps the lead's reported capacity: BULLSWARM_CAPACITY_CAP=@${lead.label}=8`);
  const leadCap = await capacity(lead);
  if (leadCap.verdict !== 'critical')
    fail('lead capacity after the cap', `expected critical, got ${leadCap.line}`);
  const leadPacket = await writeHandoffPacket({
    swarm,
    plan,
    checkout: plan.repo,
    task: LEAD_TASK,
    step: 'merge',
    reason: 'lead_handover',
    author: lead.address,
    authorPool: lead.poolId,
    content: {
      // The lane table is read from the records (who did each task, on which account); the
      // drill adds each lane's branch, which only it knows.
      lanes: (await laneTableOf(swarm, plan, planDoc)).map((lane) =>
        lane.task === 'release' ? lane : { ...lane, branch: `lane/${lane.task}` },
      ),
      releaseOrder: ['api', 'cli', 'docs', 'release'],
      pendingMerges: LANE_TASKS.map((task) => ({ branch: `lane/${task}`, into: 'main', task })),
      done: [
        { what: `every lane task done; cli after ${laneB.address}'s handoff`, evidence: [lanePacket.path] },
      ],
      notVerified: [{ what: 'every gate on main after the merges', evidence: [] }],
      next: [
        'merge the pending merges in the release order (fenced), push main (fenced)',
        'run every gate on main',
        'tag drill-done and push it (fenced)',
        'release the plan',
      ],
      decisions: [
        {
          decision: `successor for cli on ${successor.poolId}`,
          why: 'another vendor, spent account left out',
          reverse: 'lease another account',
        },
      ],
    },
    capacity: { verdict: leadCap.verdict, freePct: leadCap.freePct, line: leadCap.line },
    env: lead.env,
    notify: deputy.address,
  });
  const handedOver = await swarm.leads.handover(plan, { from: lead.address, to: deputy.address, epoch: 1 });
  say(
    `${lead.address} wrote ${leadPacket.path} and handed over to ${handedOver.lead} at epoch ${handedOver.epoch}`,
  );

  // ---- 7. the new lead finishes the plan ---------------------------------------------------------
  const dInbox = await inbox(deputy);
  if (!dInbox.some((n) => n.kind === 'lead-change' && n.epoch === 2))
    fail('deputy reads the lead notice', 'no epoch-2 lead notice');
  await capacity(deputy);
  const { packet } = await acceptHandoffPacket({
    swarm,
    packetPath: leadPacket.path,
    address: deputy.address,
  });
  say(
    `${deputy.address} accepted the lead packet: lanes ${(packet.lanes ?? []).map((l) => `${l.task}=${l.address ?? '-'} ${l.state}`).join(', ')}; release order ${(packet.releaseOrder ?? []).join(' → ')}`,
  );
  for (const lane of [laneA, laneB, laneC, successor]) {
    const state = await swarm.agents.reachability(lane.address);
    say(
      `${deputy.address} re-checks ${lane.address}: ${state.reachable ? 'reachable' : 'unreachable'} (${state.why})`,
    );
  }
  const epoch = (await swarm.leads.get(plan))!.epoch;
  const remoteChecks: RemoteCheck[] = [];
  const fenced = async (step: string, command: string[]) => {
    const run = await runFenced(swarm, { plan, epoch, address: deputy.address, command, cwd: plan.repo });
    if (run.exitCode !== 0) fail(step, run.stderr || run.stdout);
    remoteChecks.push(run.remote);
    return run;
  };
  // The new lead works from the packet's fields: the pending merges, in the release order.
  const merges = packet.pendingMerges ?? [];
  for (const task of packet.releaseOrder ?? []) {
    const merge = merges.find((m) => m.task === task);
    if (merge === undefined) continue;
    await fenced(`merge ${merge.branch}`, [
      'git',
      'merge',
      '--no-ff',
      '-q',
      '-m',
      `merge ${merge.branch} (epoch ${epoch})`,
      merge.head,
    ]);
    say(
      `${deputy.address} merged ${merge.branch} (${merge.head.slice(0, 12)}) into ${merge.into} at epoch ${epoch}`,
    );
  }
  if (merges.length !== LANE_TASKS.length)
    fail('lead packet', `expected ${LANE_TASKS.length} pending merges`);
  await fenced('push main', ['git', 'push', '-q', 'origin', 'main']);
  say(`${deputy.address} pushed main to origin (read first: the remote's main is contained in HEAD)`);
  for (const task of planDoc.tasks) {
    if (!(await gate(task.id, plan.repo, 'main')).passed)
      fail(`gate ${task.id} on main`, 'a gate failed on main');
  }
  await fenced('tag drill-done', [
    'git',
    'tag',
    '-a',
    'drill-done',
    '-m',
    `drill: plan done at epoch ${epoch}`,
  ]);
  await fenced('push drill-done', ['git', 'push', '-q', 'origin', 'drill-done']);
  await swarm.tasks.complete(plan, {
    task: 'release',
    address: deputy.address,
    evidence: ['tag drill-done'],
  });
  say(`${deputy.address} tagged drill-done and pushed it (read first: not on the remote yet)`);

  // ---- 8. the old lead returns: it sees the higher epoch and steps down; its fenced tag is refused --
  const check = await swarm.leads.checkLeadership(plan, { address: lead.address, epoch: 1 });
  if (check.current) fail('returning lead', 'the old lead still believes it leads');
  let fencing: DrillReport['fencing'] | undefined;
  try {
    await runFenced(swarm, {
      plan,
      epoch: 1,
      address: lead.address,
      command: ['git', 'tag', 'stale-lead'],
      cwd: plan.repo,
    });
  } catch (error) {
    if (!FencingError.isInstance(error)) throw error;
    fencing = { refused: 'git tag stale-lead', epoch: 1, currentEpoch: error.currentEpoch };
  }
  if (!fencing) fail('fencing', 'a lead at epoch 1 could tag');
  say(`the returning lead stepped down (${check.current ? '' : check.why}); its tag at epoch 1 was refused`);

  // ---- 9. release ---------------------------------------------------------------------------------
  for (const lease of await swarm.leases.list()) {
    if (lease.plan?.repo === plan.repo && lease.plan.id === plan.id && lease.owner !== deputy.address)
      await swarm.leases.release(lease.poolId);
  }
  await swarm.leads.release(plan, { address: deputy.address, epoch });
  say(`${deputy.address} released the plan and its leases`);

  return { epoch, fencing: fencing!, remoteChecks };
}
