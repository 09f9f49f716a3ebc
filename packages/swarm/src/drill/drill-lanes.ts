import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { TaskClaimError } from '../errors/task-claim-error';
import { git } from '../git/run-git';
import { acceptHandoffPacket } from '../handoff/accept-handoff-packet';
import { type WrittenHandoffPacket, writeHandoffPacket } from '../handoff/write-handoff-packet';
import { assignAccount } from '../launch/assign-account';
import { prepareSuccessor, startSuccessor } from '../launch/launch-successor';
import type { Notice } from '../notices/notice-box';
import type { Actor, DrillKit } from './drill-kit';
import type { DrillReport } from './drill-report';
import { DRILL_WORK } from './drill-scenario';

/** Who the lane phases put on the plan, and what they proved. */
export interface DrillCast {
  readonly lead: Actor;
  readonly deputy: Actor;
  readonly laneA: Actor;
  readonly laneB: Actor;
  readonly laneC: Actor;
  /** lane-b's successor on another account. */
  readonly successor: Actor;
  readonly lanePacket: WrittenHandoffPacket;
  readonly ask: Notice;
  readonly reply: Notice;
  /** The answer lane-c checked against lane-a's committed note. */
  readonly flag: string;
  readonly hysteresis: DrillReport['hysteresis'];
}

/**
 * Steps 1–5 of the drill: the lead claims the plan and sees every gate fail before any work; it
 * picks, leases and briefs three lanes; lane-c asks lane-a; lane-b is capped mid-task, writes a
 * packet and stops; the lead launches a successor that accepts it, re-runs the not-verified gate,
 * finishes and passes it; lane-b cannot take the task back.
 */
export async function runLanePhases(kit: DrillKit): Promise<DrillCast> {
  const { ctx, fail, actor, capacity, gate, work, commit, inbox } = kit;
  const { plan, planDoc, runtime, swarm, say } = ctx;
  // ---- 1. the lead claims the plan; gates must fail before any work --------------------------
  const lead = actor('lead-1', 'sim:lead', plan.repo);
  const deputy = actor('deputy', 'sim:deputy', plan.repo);
  for (const who of [lead, deputy])
    await swarm.agents.register({ address: who.address, pid: process.pid, poolId: who.poolId, plan });
  await swarm.leads.claim(plan, { address: lead.address, succession: [deputy.address] });
  await swarm.leases.acquire({ poolId: deputy.poolId, holder: deputy.address, owner: lead.address, plan });
  say(
    `${lead.address} claimed ${plan.label} at epoch 1 (succession: deputy); the deputy holds its own account ${deputy.poolId}`,
  );
  if ((await capacity(lead)).verdict !== 'ok') fail('lead capacity', 'the lead should start with room');
  for (const task of planDoc.tasks) {
    if ((await gate(task.id, plan.repo, 'before-work')).passed)
      fail(`gate ${task.id} before work`, 'a gate passed before any work: a vacuous gate');
  }

  // ---- 2. lanes: pick, lease, brief ----------------------------------------------------------
  const laneOf: Record<string, Actor> = {};
  for (const [taskId, address] of [
    ['api', 'lane-a'],
    ['cli', 'lane-b'],
    ['docs', 'lane-c'],
  ] as const) {
    const assigned = await assignAccount(runtime, swarm, {
      plan,
      task: taskId,
      owner: lead.address,
      address,
      env: lead.env,
    });
    const checkout = join(ctx.lanesDir, taskId);
    git(plan.repo, ['worktree', 'add', '-q', '-b', `lane/${taskId}`, checkout]);
    const lane = actor(address, assigned.poolId, realpathSync(checkout));
    await swarm.agents.register({ address, pid: process.pid, poolId: assigned.poolId, plan });
    laneOf[taskId] = lane;
    const epoch = (await swarm.leads.get(plan))!.epoch;
    await swarm.notices.send({
      to: address,
      from: lead.address,
      plan,
      epoch,
      text: `go ahead: task ${taskId} in ${lane.checkout} on branch lane/${taskId}, account @${lane.label}`,
    });
    say(`${lead.address} leased ${assigned.poolId} to ${address} for ${taskId} (${assigned.pick.reason})`);
  }
  const laneA = laneOf.api!;
  const laneB = laneOf.cli!;
  const laneC = laneOf.docs!;

  // ---- 3. lane-c asks lane-a (lane to lane), then lane-a works and answers at its turn boundary --
  await inbox(laneC);
  await capacity(laneC);
  await swarm.tasks.claim(plan, { task: 'docs', address: laneC.address });
  const ask = await swarm.notices.send({
    to: laneA.address,
    from: laneC.address,
    plan,
    kind: 'ask',
    text: 'docs: what is the exact flag name the api uses for its output format?',
  });
  say(`${laneC.address} asked ${laneA.address} (notice #${ask.id}) and ended its turn`);

  const aInbox = await inbox(laneA);
  const askSeen = aInbox.find((n) => n.kind === 'ask' && n.id === ask.id);
  if (!askSeen) fail('lane-a reads its inbox', 'the ask did not reach lane-a');
  await capacity(laneA);
  await swarm.tasks.claim(plan, { task: 'api', address: laneA.address });
  await work(laneA, 'api', DRILL_WORK.api, lead.address);
  commit(laneA, 'api: note with the output flag');
  if (!(await gate('api', laneA.checkout, 'lane')).passed)
    fail('api gate', 'the api gate failed after the work');
  await swarm.tasks.complete(plan, { task: 'api', address: laneA.address, evidence: ['src/api.txt'] });
  const reply = await swarm.notices.send({
    to: laneC.address,
    from: laneA.address,
    plan,
    kind: 'reply',
    re: ask.id,
    text: '--format',
  });
  const aCap = await capacity(laneA);
  await swarm.notices.send({ to: lead.address, from: laneA.address, plan, text: `done api ${aCap.line}` });

  const cInbox = await inbox(laneC);
  const answer = cInbox.find((n) => n.kind === 'reply' && n.re === ask.id);
  if (!answer) fail('lane-c reads the reply', 'no reply to the ask');
  // The reply is data: lane-c checks it against lane-a's committed note before relying on it.
  const flag = answer!.text.trim();
  if (!/^--[a-z-]+$/.test(flag) || !git(laneA.checkout, ['show', 'HEAD:src/api.txt']).includes(flag)) {
    fail('lane-c checks the reply', `the reply "${flag}" does not match lane-a's committed api note`);
  }
  await work(laneC, 'docs', DRILL_WORK.docs(flag), lead.address);
  commit(laneC, 'docs: usage with the api flag');
  if (!(await gate('docs', laneC.checkout, 'lane')).passed)
    fail('docs gate', 'the docs gate failed after the work');
  await swarm.tasks.complete(plan, { task: 'docs', address: laneC.address, evidence: ['docs/usage.md'] });
  await swarm.notices.send({
    to: lead.address,
    from: laneC.address,
    plan,
    text: `done docs ${(await capacity(laneC)).line}`,
  });

  // ---- 4. lane-b is capped mid-task: safe point, packet, stop --------------------------------
  await inbox(laneB);
  await capacity(laneB);
  await swarm.tasks.claim(plan, { task: 'cli', address: laneB.address });
  await work(laneB, 'cli', DRILL_WORK.cliPart1, lead.address);
  const part1 = commit(laneB, 'cli: part 1');
  await work(laneB, 'cli', DRILL_WORK.cliDraft, lead.address);
  laneB.env.BULLSWARM_CAPACITY_CAP = `@${laneB.label}=8`;
  say(`drill caps ${laneB.address}'s reported capacity: BULLSWARM_CAPACITY_CAP=@${laneB.label}=8`);
  const bCap = await capacity(laneB);
  if (bCap.verdict !== 'critical')
    fail('lane-b capacity after the cap', `expected critical, got ${bCap.line}`);
  const lanePacket = await writeHandoffPacket({
    swarm,
    plan,
    checkout: laneB.checkout,
    task: 'cli',
    step: 'part-2',
    reason: 'capacity_critical',
    author: laneB.address,
    authorPool: laneB.poolId,
    content: {
      done: [{ what: 'part 1 written and committed', evidence: ['src/cli-part1.txt', `commit ${part1}`] }],
      verified: [],
      notVerified: [{ what: 'the cli gate (node gates/check.mjs cli)', evidence: [] }],
      next: ['finish src/cli-part2.txt (its draft is uncommitted)', 'commit part 2', 'run the cli gate'],
      decisions: [
        {
          decision: 'split the cli note in two parts',
          why: 'a safe point between them',
          reverse: 'merge the two files',
        },
      ],
    },
    capacity: { verdict: bCap.verdict, freePct: bCap.freePct, line: bCap.line },
    env: laneB.env,
  });
  say(`${laneB.address} wrote ${lanePacket.path} and stopped`);

  // ---- 5. the lead launches a successor that accepts the packet and passes the gate ------------
  const leadInbox = await inbox(lead);
  const handoffNotice = leadInbox.find((n) => n.kind === 'handoff' && n.from === laneB.address);
  // The notice is data: the lead acts on the packet the store recorded, not on the text alone.
  const recorded = (await swarm.handoffs.list(plan)).find(
    (h) => h.acceptedBy === undefined && h.launchedAt === undefined,
  );
  if (!handoffNotice || !recorded || !handoffNotice.text.includes(recorded.packetPath)) {
    fail('lead reads the handoff notice', 'no handoff notice matching a recorded packet');
  }
  await capacity(lead);
  const prepared = await prepareSuccessor(runtime, swarm, {
    packetPath: recorded!.packetPath,
    owner: lead.address,
    env: lead.env,
  });
  say(
    `${lead.address} leased ${prepared.poolId} to ${prepared.successor} (spent account ${laneB.poolId} left out; ${prepared.pick.reason})`,
  );
  const successor = actor(prepared.successor, prepared.poolId, laneB.checkout);
  await swarm.agents.register({
    address: successor.address,
    pid: process.pid,
    poolId: successor.poolId,
    plan,
  });
  await inbox(successor);
  await capacity(successor);
  const accepted = await acceptHandoffPacket({
    swarm,
    packetPath: prepared.packetPath,
    address: successor.address,
  });
  say(`${successor.address} accepted the packet (${accepted.acceptancePath})`);
  if ((await gate('cli', successor.checkout, 'rerun')).passed)
    fail('successor re-runs the cli gate', 'the gate passed on an unfinished draft');
  const started = await startSuccessor(runtime, swarm, prepared, {
    promptExtra: DRILL_WORK.cliFinal,
    attachPid: false,
  });
  if (!started.dispatch.ok) fail('successor works', `the successor's sim run ended ${started.dispatch.kind}`);
  if (started.releasedSpentLease !== laneB.poolId)
    fail('lead releases the spent lease', 'the spent lease was not released after the accept');
  commit(successor, 'cli: part 2 (successor)');
  if (!(await gate('cli', successor.checkout, 'lane')).passed)
    fail('cli gate', "the cli gate failed after the successor's work");
  await swarm.tasks.complete(plan, {
    task: 'cli',
    address: successor.address,
    evidence: ['src/cli-part1.txt', 'src/cli-part2.txt'],
  });
  await swarm.notices.send({
    to: lead.address,
    from: successor.address,
    plan,
    text: `done cli ${(await capacity(successor)).line}`,
  });
  let hysteresis: DrillReport['hysteresis'] | undefined;
  try {
    await swarm.tasks.claim(plan, { task: 'cli', address: laneB.address });
  } catch (error) {
    if (TaskClaimError.isInstance(error) && error.reason === 'relinquished') {
      hysteresis = { address: laneB.address, task: 'cli', refused: error.message };
    } else throw error;
  }
  if (!hysteresis) fail('hysteresis', 'lane-b could take back the task it handed off');
  say(`${laneB.address} tried to take cli back after its handoff: refused`);

  return {
    lead,
    deputy,
    laneA,
    laneB,
    laneC,
    successor,
    lanePacket,
    ask,
    reply,
    flag,
    hysteresis: hysteresis!,
  };
}
