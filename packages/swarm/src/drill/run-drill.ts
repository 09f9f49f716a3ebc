import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '@bullswarm/connectors/internal';
import { type BullswarmRuntime, openRuntime } from '@bullswarm/dispatch';
import { openHome } from '@bullswarm/store';
import { checkCapacity } from '../capacity/check-capacity';
import type { CapacityReport } from '../capacity/read-capacity';
import { DrillFailedError } from '../errors/drill-failed-error';
import { FencingError } from '../errors/fencing-error';
import { SwarmInputError } from '../errors/swarm-input-error';
import { TaskClaimError } from '../errors/task-claim-error';
import { type GateRun, runGate } from '../gates/run-gate';
import { git } from '../git/run-git';
import { acceptHandoffPacket } from '../handoff/accept-handoff-packet';
import { LEAD_TASK } from '../handoff/handoff-packet-schema';
import { writeHandoffPacket } from '../handoff/write-handoff-packet';
import { assignAccount } from '../launch/assign-account';
import { prepareSuccessor, startSuccessor } from '../launch/launch-successor';
import { runLaneWork } from '../launch/run-lane-work';
import type { LeadEvent } from '../leads/lead-book';
import { runFenced } from '../leads/run-fenced';
import type { Notice } from '../notices/notice-box';
import { appendJournal } from '../plans/journal';
import { loadPlan, type PlanLocation, planLocation } from '../plans/plan-location';
import type { Plan, PlanTask } from '../plans/plan-schema';
import { BULLSWARM_AGENT, BULLSWARM_PLAN, type SwarmEnv } from '../settings/swarm-env';
import { createSwarm, type Swarm } from '../store/create-swarm';
import { DRILL_GATE_SCRIPT, DRILL_PLAN_ID, DRILL_POOLS, DRILL_WORK, drillPlan } from './drill-scenario';

/** Options of {@link runDrill}. */
export interface RunDrillOptions {
  /** The scratch directory (created; must be new or empty). Default: a new temp directory. */
  readonly dir?: string;
  /** The base environment (default `process.env`); bullswarm's and the kit's own variables are left out. */
  readonly env?: SwarmEnv;
  /** Receives one line per step as the drill goes. */
  readonly onProgress?: (line: string) => void;
}

/** One gate run of the drill. */
export interface DrillGate extends GateRun {
  readonly task: string;
  /** `before-work` (must fail: no vacuous pass), `lane`, `rerun` (what a packet listed as not verified), `main`. */
  readonly phase: 'before-work' | 'lane' | 'rerun' | 'main';
}

/** What the drill proved, with where the evidence is. */
export interface DrillReport {
  readonly ok: true;
  readonly dir: string;
  readonly home: string;
  readonly repo: string;
  readonly plan: string;
  /** `plans/drill/analysis_results/drill-evidence.json` */
  readonly evidencePath: string;
  readonly lanes: readonly {
    readonly task: string;
    readonly address: string;
    readonly poolId: string;
    readonly branch: string;
  }[];
  readonly packets: readonly {
    readonly path: string;
    readonly task: string;
    readonly reason: string;
    readonly author: string;
    readonly acceptedBy: string | undefined;
  }[];
  readonly successor: { readonly address: string; readonly poolId: string; readonly spentPoolId: string };
  readonly epochs: readonly LeadEvent[];
  readonly gates: readonly DrillGate[];
  readonly ask: {
    readonly from: string;
    readonly to: string;
    readonly askId: number;
    readonly replyId: number;
    readonly answer: string;
  };
  readonly capacity: readonly { readonly by: string; readonly line: string; readonly verdict: string }[];
  readonly fencing: { readonly refused: string; readonly epoch: number; readonly currentEpoch: number };
  readonly hysteresis: { readonly address: string; readonly task: string; readonly refused: string };
  readonly tag: string;
  readonly head: string;
  readonly humanKeystrokes: 0;
  readonly steps: readonly string[];
}

interface Actor {
  readonly address: string;
  readonly poolId: string;
  readonly label: string;
  readonly checkout: string;
  /** The agent's environment (a cap is added to it when the drill caps its capacity). */
  readonly env: Record<string, string | undefined>;
}

const MEANS_OF_PROOF =
  'The lead, the deputy, the lanes and the successor are drill actors in this process that follow the protocol through the same library calls the `bullswarm` commands use (capacity, lead claim/handover, lease, notify/inbox, handoff write/accept/launch, lead fence). The lane work and the successor are real bullswarm-sim processes started through dispatchTask on the leased accounts; gates are real commands; merges and the tag are real git.';

/**
 * The drill (swarm-autonomy, "Drilling it"): proves the loop with no human keystroke on a scratch
 * git repository with a small plan, a lead, a deputy and three lanes on sim accounts.
 *
 * 1. The lead claims the plan (succession: the deputy) and checks every gate fails before any work.
 * 2. It picks and leases an account per lane and briefs the lanes; lane-c asks lane-a for the
 *    api's flag name (a lane-to-lane ask, answered at lane-a's next turn boundary).
 * 3. lane-b's capacity is capped to 8 (`BULLSWARM_CAPACITY_CAP=@<its account>=8`) mid-task: it
 *    reaches a safe point, writes a packet and stops. The lead launches a successor on another
 *    account (another vendor preferred) that accepts the packet, re-runs the gate the packet lists
 *    as not verified, finishes the work and passes the gate; the spent lease is released, and
 *    lane-b's later attempt to take the task back is refused (hysteresis).
 * 4. The lead's capacity is capped the same way: it writes a lead packet and hands over (epoch 2).
 *    The deputy accepts, merges every lane branch and tags through fencing, runs every gate on
 *    main and releases the plan; the returning lead sees the higher epoch, steps down, and its
 *    fenced tag is refused.
 * 5. The evidence — every packet, every epoch, the ask, the gates — goes to the plan's
 *    `analysis_results/drill-evidence.json` (and `drill-report.md`).
 *
 * @throws DrillFailedError naming the step when something does not happen as the protocol says.
 */
export async function runDrill(options: RunDrillOptions = {}): Promise<DrillReport> {
  const dir = prepareDir(options.dir);
  const steps: string[] = [];
  const say = (line: string) => {
    steps.push(line);
    options.onProgress?.(line);
  };
  const baseEnv: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(options.env ?? process.env)) {
    if (!/^(BULLSWARM_|AGENTKIT_)/.test(name)) baseEnv[name] = value;
  }
  const home = join(dir, 'home');
  const repoDir = join(dir, 'repo');
  const lanesDir = join(dir, 'lanes');
  writeDrillHome(home, Date.now());
  const plan = createDrillRepo(repoDir);
  const planDoc = loadPlan(plan);
  say(`scratch ${dir}: home ${home}, repository ${plan.repo}, plan ${plan.label}`);

  const runtime = await openRuntime({ home, env: baseEnv, createStore: true, userHome: home });
  try {
    const swarm = createSwarm({ store: runtime.requireStore(), env: baseEnv, clock: runtime.clock });
    return await drill({ dir, home, plan, planDoc, runtime, swarm, baseEnv, lanesDir, say, steps });
  } catch (error) {
    if (DrillFailedError.isInstance(error)) throw error;
    throw new DrillFailedError({
      step: steps.at(-1) ?? 'setup',
      problem: (error as Error).message ?? String(error),
      dir,
      cause: error,
    });
  } finally {
    runtime.close();
  }
}

interface DrillContext {
  readonly dir: string;
  readonly home: string;
  readonly plan: PlanLocation;
  readonly planDoc: Plan;
  readonly runtime: BullswarmRuntime;
  readonly swarm: Swarm;
  readonly baseEnv: Record<string, string | undefined>;
  readonly lanesDir: string;
  readonly say: (line: string) => void;
  readonly steps: string[];
}

async function drill(ctx: DrillContext): Promise<DrillReport> {
  const { dir, plan, planDoc, runtime, swarm, say } = ctx;
  const fail = (step: string, problem: string): never => {
    throw new DrillFailedError({ step, problem, dir });
  };
  const gates: DrillGate[] = [];
  const capacityLog: { by: string; line: string; verdict: string }[] = [];
  const taskOf = (id: string): PlanTask => planDoc.tasks.find((t) => t.id === id)!;
  const actor = (address: string, poolId: string, checkout: string): Actor => ({
    address,
    poolId,
    label: runtime.label(poolId),
    checkout,
    env: {
      ...ctx.baseEnv,
      [BULLSWARM_AGENT]: address,
      BULLSWARM_POOL: poolId,
      [BULLSWARM_PLAN]: `${plan.repo}/${plan.id}`,
    },
  });
  const capacity = async (who: Actor): Promise<CapacityReport> => {
    swarm.agents.heartbeat(who.address);
    const report = await checkCapacity(runtime, { self: true, env: who.env, plan, by: who.address });
    capacityLog.push({ by: who.address, line: report.line, verdict: report.verdict });
    say(`${who.address}: ${report.line}`);
    return report;
  };
  const gate = async (taskId: string, checkout: string, phase: DrillGate['phase']): Promise<DrillGate> => {
    const run = {
      ...(await runGate(taskOf(taskId).gate!, checkout, { env: ctx.baseEnv })),
      task: taskId,
      phase,
    };
    gates.push(run);
    say(
      `gate ${taskId} (${phase}) in ${checkout}: ${run.passed ? 'passed' : `failed (exit ${run.exitCode})`}`,
    );
    return run;
  };
  const work = async (who: Actor, taskId: string, directive: string, launchedBy: string) => {
    const task = taskOf(taskId);
    const result = await runLaneWork(runtime, swarm, {
      plan,
      task: taskId,
      address: who.address,
      poolId: who.poolId,
      cwd: who.checkout,
      prompt: `Task ${taskId} of plan ${plan.label}: ${task.title ?? taskId}. ${directive}`,
      lane: task.lane,
      ...(task.tier === undefined ? {} : { tier: task.tier }),
      launchedBy,
      // The lane's protocol runs in this process (its registered pid); the sim is its hands.
      attachPid: false,
    });
    if (!result.ok)
      fail(`${who.address} works on ${taskId}`, `the sim run ended ${result.kind}: ${result.why ?? ''}`);
    say(`${who.address}: sim worked on ${taskId} on ${result.poolId} (${result.attempts.length} attempt)`);
    return result;
  };
  const commit = (who: Actor, message: string) => {
    git(who.checkout, ['add', '-A']);
    git(who.checkout, ['commit', '-q', '-m', message]);
    return git(who.checkout, ['rev-parse', 'HEAD']).trim();
  };
  const inbox = (who: Actor): Notice[] => {
    const notices = swarm.notices.readInbox(who.address);
    for (const n of notices) say(`${who.address} inbox: ${n.kind} from ${n.from ?? '-'}: ${n.text}`);
    return notices;
  };

  // ---- 1. the lead claims the plan; gates must fail before any work --------------------------
  const lead = actor('lead-1', 'sim:lead', plan.repo);
  const deputy = actor('deputy', 'sim:deputy', plan.repo);
  for (const who of [lead, deputy])
    swarm.agents.register({ address: who.address, pid: process.pid, poolId: who.poolId, plan });
  swarm.leads.claim(plan, { address: lead.address, succession: [deputy.address] });
  swarm.leases.acquire({ poolId: deputy.poolId, holder: deputy.address, owner: lead.address, plan });
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
    swarm.agents.register({ address, pid: process.pid, poolId: assigned.poolId, plan });
    laneOf[taskId] = lane;
    const epoch = swarm.leads.get(plan)!.epoch;
    swarm.notices.send({
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
  inbox(laneC);
  await capacity(laneC);
  swarm.tasks.claim(plan, { task: 'docs', address: laneC.address });
  const ask = swarm.notices.send({
    to: laneA.address,
    from: laneC.address,
    plan,
    kind: 'ask',
    text: 'docs: what is the exact flag name the api uses for its output format?',
  });
  say(`${laneC.address} asked ${laneA.address} (notice #${ask.id}) and ended its turn`);

  const aInbox = inbox(laneA);
  const askSeen = aInbox.find((n) => n.kind === 'ask' && n.id === ask.id);
  if (!askSeen) fail('lane-a reads its inbox', 'the ask did not reach lane-a');
  await capacity(laneA);
  swarm.tasks.claim(plan, { task: 'api', address: laneA.address });
  await work(laneA, 'api', DRILL_WORK.api, lead.address);
  commit(laneA, 'api: note with the output flag');
  if (!(await gate('api', laneA.checkout, 'lane')).passed)
    fail('api gate', 'the api gate failed after the work');
  swarm.tasks.complete(plan, { task: 'api', address: laneA.address, evidence: ['src/api.txt'] });
  const reply = swarm.notices.send({
    to: laneC.address,
    from: laneA.address,
    plan,
    kind: 'reply',
    re: ask.id,
    text: '--format',
  });
  const aCap = await capacity(laneA);
  swarm.notices.send({ to: lead.address, from: laneA.address, plan, text: `done api ${aCap.line}` });

  const cInbox = inbox(laneC);
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
  swarm.tasks.complete(plan, { task: 'docs', address: laneC.address, evidence: ['docs/usage.md'] });
  swarm.notices.send({
    to: lead.address,
    from: laneC.address,
    plan,
    text: `done docs ${(await capacity(laneC)).line}`,
  });

  // ---- 4. lane-b is capped mid-task: safe point, packet, stop --------------------------------
  inbox(laneB);
  await capacity(laneB);
  swarm.tasks.claim(plan, { task: 'cli', address: laneB.address });
  await work(laneB, 'cli', DRILL_WORK.cliPart1, lead.address);
  const part1 = commit(laneB, 'cli: part 1');
  await work(laneB, 'cli', DRILL_WORK.cliDraft, lead.address);
  laneB.env.BULLSWARM_CAPACITY_CAP = `@${laneB.label}=8`;
  say(`drill caps ${laneB.address}'s reported capacity: BULLSWARM_CAPACITY_CAP=@${laneB.label}=8`);
  const bCap = await capacity(laneB);
  if (bCap.verdict !== 'critical')
    fail('lane-b capacity after the cap', `expected critical, got ${bCap.line}`);
  const lanePacket = writeHandoffPacket({
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
  const leadInbox = inbox(lead);
  const handoffNotice = leadInbox.find((n) => n.kind === 'handoff' && n.from === laneB.address);
  // The notice is data: the lead acts on the packet the store recorded, not on the text alone.
  const recorded = swarm.handoffs
    .list(plan)
    .find((h) => h.acceptedBy === undefined && h.launchedAt === undefined);
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
  swarm.agents.register({ address: successor.address, pid: process.pid, poolId: successor.poolId, plan });
  inbox(successor);
  await capacity(successor);
  const accepted = acceptHandoffPacket({
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
  swarm.tasks.complete(plan, {
    task: 'cli',
    address: successor.address,
    evidence: ['src/cli-part1.txt', 'src/cli-part2.txt'],
  });
  swarm.notices.send({
    to: lead.address,
    from: successor.address,
    plan,
    text: `done cli ${(await capacity(successor)).line}`,
  });
  let hysteresis: DrillReport['hysteresis'] | undefined;
  try {
    swarm.tasks.claim(plan, { task: 'cli', address: laneB.address });
  } catch (error) {
    if (TaskClaimError.isInstance(error) && error.reason === 'relinquished') {
      hysteresis = { address: laneB.address, task: 'cli', refused: error.message };
    } else throw error;
  }
  if (!hysteresis) fail('hysteresis', 'lane-b could take back the task it handed off');
  say(`${laneB.address} tried to take cli back after its handoff: refused`);

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

  // ---- evidence -----------------------------------------------------------------------------------
  const head = git(plan.repo, ['rev-parse', 'HEAD']).trim();
  const packets = swarm.handoffs.list(plan).map((h) => ({
    path: h.packetPath,
    task: h.task,
    reason: h.reason,
    author: h.author,
    acceptedBy: h.acceptedBy,
  }));
  const report: DrillReport = {
    ok: true,
    dir,
    home: ctx.home,
    repo: plan.repo,
    plan: plan.label,
    evidencePath: join(plan.analysisDir, 'drill-evidence.json'),
    lanes: [laneA, laneB, laneC, successor].map((l, i) => ({
      task: ['api', 'cli', 'docs', 'cli'][i]!,
      address: l.address,
      poolId: l.poolId,
      branch: `lane/${['api', 'cli', 'docs', 'cli'][i]}`,
    })),
    packets,
    successor: { address: successor.address, poolId: successor.poolId, spentPoolId: laneB.poolId },
    epochs: swarm.leads.history(plan),
    gates,
    ask: { from: laneC.address, to: laneA.address, askId: ask.id, replyId: reply.id, answer: flag },
    capacity: capacityLog,
    fencing: fencing!,
    hysteresis: hysteresis!,
    tag: 'drill-done',
    head,
    humanKeystrokes: 0,
    steps: ctx.steps,
  };
  mkdirSync(plan.analysisDir, { recursive: true });
  writeFileAtomic(
    report.evidencePath,
    `${JSON.stringify({ schema: 'bullswarm-drill-evidence/v1', means: MEANS_OF_PROOF, stdin: 'never read', ...report }, null, 2)}\n`,
    { mode: 0o644 },
  );
  writeFileAtomic(join(plan.analysisDir, 'drill-report.md'), drillMarkdown(report), { mode: 0o644 });
  appendJournal(
    plan.journalFile,
    {
      type: 'observation',
      event: 'drill.finished',
      plan: plan.id,
      by: deputy.address,
      epoch,
      evidence: report.evidencePath,
    },
    runtime.clock(),
  );
  say(`evidence: ${report.evidencePath}`);
  return report;
}

function prepareDir(dir: string | undefined): string {
  if (dir === undefined) return realpathSync(mkdtempSync(join(tmpdir(), 'bullswarm-drill-')));
  const expected = 'a new or empty directory (the drill creates its home and repository there)';
  if (dir.trim() === '') throw new SwarmInputError({ field: '--dir', expected, received: dir });
  const absolute = resolve(dir);
  if (existsSync(absolute) && !statSync(absolute).isDirectory()) {
    throw new SwarmInputError({ field: '--dir', expected: `${expected}; it is a file`, received: dir });
  }
  try {
    mkdirSync(absolute, { recursive: true });
  } catch (error) {
    throw new SwarmInputError({
      field: '--dir',
      expected: `${expected}; it cannot be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      received: dir,
    });
  }
  if (readdirSync(absolute).length > 0) {
    throw new SwarmInputError({
      field: '--dir',
      expected,
      received: dir,
    });
  }
  return realpathSync(absolute);
}

/**
 * The drill's bullswarm home: its sim accounts and their labels (through the store, as `demo`
 * writes its home: validated, atomic), and each account's meter file.
 */
function writeDrillHome(home: string, now: number): void {
  const addedAt = new Date(now).toISOString();
  const drillHome = openHome({ home });
  drillHome.updateState((state) => {
    state.pools = DRILL_POOLS.map((p) => ({
      id: `${p.connector}:${p.account}`,
      connector: p.connector,
      account: p.account,
      enabled: true,
      models: {},
      addedAt,
    }));
    state.assignments = {};
  });
  drillHome.updateLabels((labels) => {
    labels.labels = Object.fromEntries(DRILL_POOLS.map((p) => [`${p.connector}:${p.account}`, p.account]));
  });
  for (const p of DRILL_POOLS) {
    // Each sim connector keeps its accounts under <home>/<connector>/<account> (BULLSWARM_SIM_HOME).
    const simHome = join(home, p.connector, p.account);
    mkdirSync(simHome, { recursive: true });
    const reading = {
      readAt: addedAt,
      windows: [
        {
          kind: 'five_hour',
          usedPct: 5,
          resetsAt: new Date(now + 200 * 60_000).toISOString(),
          windowMinutes: 300,
        },
        {
          kind: 'weekly',
          usedPct: p.weeklyUsedPct,
          resetsAt: new Date(now + 3 * 86_400_000).toISOString(),
          windowMinutes: 10_080,
        },
      ],
    };
    writeFileSync(join(simHome, 'meter.json'), `${JSON.stringify(reading, null, 2)}\n`);
  }
}

/** The scratch repository: the plan and its gates on main. */
function createDrillRepo(repoDir: string): PlanLocation {
  mkdirSync(repoDir, { recursive: true });
  git(repoDir, ['init', '-q', '-b', 'main']);
  git(repoDir, ['config', 'user.email', 'drill@bullswarm.invalid']);
  git(repoDir, ['config', 'user.name', 'bullswarm drill']);
  git(repoDir, ['config', 'commit.gpgsign', 'false']);
  git(repoDir, ['config', 'tag.gpgsign', 'false']);
  const repo = realpathSync(repoDir);
  const plan = planLocation({ repo, id: DRILL_PLAN_ID });
  mkdirSync(plan.dir, { recursive: true });
  mkdirSync(join(repo, 'gates'), { recursive: true });
  writeFileSync(plan.planFile, `${JSON.stringify(drillPlan(), null, 2)}\n`);
  writeFileSync(join(repo, 'gates', 'check.mjs'), DRILL_GATE_SCRIPT);
  writeFileSync(
    join(repo, 'README.md'),
    '# bullswarm drill\n\nA scratch repository made by `bullswarm swarm drill`.\n',
  );
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'drill: plan and gates']);
  return plan;
}

function drillMarkdown(report: DrillReport): string {
  const lines = [
    `# Drill of ${report.plan}`,
    '',
    MEANS_OF_PROOF,
    '',
    'No human keystroke: the drill never reads standard input.',
    '',
    '## Lanes',
    ...report.lanes.map((l) => `- ${l.task}: ${l.address} on ${l.poolId} (${l.branch})`),
    '',
    '## Packets',
    ...report.packets.map(
      (p) => `- ${p.path} — ${p.task}, ${p.reason}, by ${p.author}, accepted by ${p.acceptedBy ?? '-'}`,
    ),
    '',
    '## Epochs',
    ...report.epochs.map(
      (e) =>
        `- ${new Date(e.at).toISOString()} ${e.kind} epoch ${e.epoch}${e.lead ? ` lead ${e.lead}` : ''}${e.reason ? ` (${e.reason})` : ''}`,
    ),
    '',
    '## Lane-to-lane ask',
    `- ${report.ask.from} asked ${report.ask.to} (notice #${report.ask.askId}); answer "${report.ask.answer}" (notice #${report.ask.replyId})`,
    '',
    '## Gates',
    ...report.gates.map(
      (g) => `- ${g.task} (${g.phase}) in ${g.cwd}: ${g.passed ? 'passed' : `failed, exit ${g.exitCode}`}`,
    ),
    '',
    '## Capacity lines',
    ...report.capacity.map((c) => `- ${c.by}: ${c.line}`),
    '',
    `Fencing: \`${report.fencing.refused}\` at epoch ${report.fencing.epoch} refused (current epoch ${report.fencing.currentEpoch}).`,
    `Hysteresis: ${report.hysteresis.address} could not take ${report.hysteresis.task} back.`,
    `Tag ${report.tag} at ${report.head}.`,
    '',
  ];
  return `${lines.join('\n')}\n`;
}
