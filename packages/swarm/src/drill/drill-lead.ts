import { FencingError } from '../errors/fencing-error';
import { acceptHandoffPacket } from '../handoff/accept-handoff-packet';
import { LEAD_TASK } from '../handoff/handoff-packet-schema';
import { writeHandoffPacket } from '../handoff/write-handoff-packet';
import { runFenced } from '../leads/run-fenced';
import type { DrillKit } from './drill-kit';
import type { DrillCast } from './drill-lanes';
import type { DrillReport } from './drill-report';

/** What the lead phases proved. */
export interface DrillLeadOutcome {
  /** The epoch the new lead finished the plan at. */
  readonly epoch: number;
  readonly fencing: DrillReport['fencing'];
}

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
  inbox(lead);
  lead.env.BULLSWARM_CAPACITY_CAP = `@${lead.label}=8`;
  say(`drill caps the lead's reported capacity: BULLSWARM_CAPACITY_CAP=@${lead.label}=8`);
  const leadCap = await capacity(lead);
  if (leadCap.verdict !== 'critical')
    fail('lead capacity after the cap', `expected critical, got ${leadCap.line}`);
  const leadPacket = writeHandoffPacket({
    swarm,
    plan,
    checkout: plan.repo,
    task: LEAD_TASK,
    step: 'merge',
    reason: 'lead_handover',
    author: lead.address,
    authorPool: lead.poolId,
    content: {
      done: [
        { what: `lane table: api by ${laneA.address} on ${laneA.poolId}, done`, evidence: [`lane/api`] },
        { what: `lane table: docs by ${laneC.address} on ${laneC.poolId}, done`, evidence: [`lane/docs`] },
        {
          what: `lane table: cli by ${successor.address} on ${successor.poolId} after ${laneB.address}'s handoff, done`,
          evidence: [lanePacket.path],
        },
      ],
      notVerified: [{ what: 'every gate on main after the merges', evidence: [] }],
      next: [
        'merge lane/api, lane/cli, lane/docs into main (fenced)',
        'run every gate on main',
        'tag drill-done (fenced)',
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
  const handedOver = swarm.leads.handover(plan, { from: lead.address, to: deputy.address, epoch: 1 });
  say(
    `${lead.address} wrote ${leadPacket.path} and handed over to ${handedOver.lead} at epoch ${handedOver.epoch}`,
  );

  // ---- 7. the new lead finishes the plan ---------------------------------------------------------
  const dInbox = inbox(deputy);
  if (!dInbox.some((n) => n.kind === 'lead-change' && n.epoch === 2))
    fail('deputy reads the lead notice', 'no epoch-2 lead notice');
  await capacity(deputy);
  acceptHandoffPacket({ swarm, packetPath: leadPacket.path, address: deputy.address });
  say(`${deputy.address} accepted the lead packet`);
  for (const lane of [laneA, laneB, laneC, successor]) {
    const state = swarm.agents.reachability(lane.address);
    say(
      `${deputy.address} re-checks ${lane.address}: ${state.reachable ? 'reachable' : 'unreachable'} (${state.why})`,
    );
  }
  const epoch = swarm.leads.get(plan)!.epoch;
  for (const taskId of ['api', 'cli', 'docs']) {
    const merge = await runFenced(swarm, {
      plan,
      epoch,
      address: deputy.address,
      command: [
        'git',
        'merge',
        '--no-ff',
        '-q',
        '-m',
        `merge lane/${taskId} (epoch ${epoch})`,
        `lane/${taskId}`,
      ],
      cwd: plan.repo,
    });
    if (merge.exitCode !== 0) fail(`merge lane/${taskId}`, merge.stderr || merge.stdout);
    say(`${deputy.address} merged lane/${taskId} into main at epoch ${epoch}`);
  }
  for (const task of planDoc.tasks) {
    if (!(await gate(task.id, plan.repo, 'main')).passed)
      fail(`gate ${task.id} on main`, 'a gate failed on main');
  }
  const tag = await runFenced(swarm, {
    plan,
    epoch,
    address: deputy.address,
    command: ['git', 'tag', '-a', 'drill-done', '-m', `drill: plan done at epoch ${epoch}`],
    cwd: plan.repo,
  });
  if (tag.exitCode !== 0) fail('tag drill-done', tag.stderr || tag.stdout);
  swarm.tasks.complete(plan, { task: 'release', address: deputy.address, evidence: ['tag drill-done'] });
  say(`${deputy.address} tagged drill-done`);

  // ---- 8. the old lead returns: it sees the higher epoch and steps down; its fenced tag is refused --
  const check = swarm.leads.checkLeadership(plan, { address: lead.address, epoch: 1 });
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
  for (const lease of swarm.leases.list()) {
    if (lease.plan?.repo === plan.repo && lease.plan.id === plan.id && lease.owner !== deputy.address)
      swarm.leases.release(lease.poolId);
  }
  swarm.leads.release(plan, { address: deputy.address, epoch });
  say(`${deputy.address} released the plan and its leases`);

  return { epoch, fencing: fencing! };
}
