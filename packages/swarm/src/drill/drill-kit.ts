import type { BullswarmRuntime } from '@bullswarm/dispatch';
import { checkCapacity } from '../capacity/check-capacity';
import type { CapacityReport } from '../capacity/read-capacity';
import { DrillFailedError } from '../errors/drill-failed-error';
import { runGate } from '../gates/run-gate';
import { git } from '../git/run-git';
import { runLaneWork } from '../launch/run-lane-work';
import type { Notice } from '../notices/notice-box';
import type { PlanLocation } from '../plans/plan-location';
import type { Plan, PlanTask } from '../plans/plan-schema';
import { BULLSWARM_AGENT, BULLSWARM_PLAN } from '../settings/swarm-env';
import type { Swarm } from '../store/create-swarm';
import type { DrillGate } from './drill-report';

/** One drill actor: an address on an account in a checkout, with the environment it runs in. */
export interface Actor {
  readonly address: string;
  readonly poolId: string;
  readonly label: string;
  readonly checkout: string;
  /** The agent's environment (a cap is added to it when the drill caps its capacity). */
  readonly env: Record<string, string | undefined>;
}

/** What every phase of the drill works with. */
export interface DrillContext {
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

/**
 * The drill's hands: the protocol steps an actor takes through the same library calls the
 * commands use (capacity at a task boundary, a gate, real sim work through dispatch, a commit, the
 * inbox), each said as a progress line; and what they recorded (gates, capacity lines).
 */
export interface DrillKit {
  readonly ctx: DrillContext;
  readonly gates: DrillGate[];
  readonly capacityLog: { by: string; line: string; verdict: string }[];
  /** @throws DrillFailedError naming the step. */
  fail(step: string, problem: string): never;
  actor(address: string, poolId: string, checkout: string): Actor;
  capacity(who: Actor): Promise<CapacityReport>;
  gate(taskId: string, checkout: string, phase: DrillGate['phase']): Promise<DrillGate>;
  work(who: Actor, taskId: string, directive: string, launchedBy: string): Promise<unknown>;
  /** Commits everything in the actor's checkout; returns the new head. */
  commit(who: Actor, message: string): string;
  inbox(who: Actor): Promise<Notice[]>;
}

/** The kit of one drill run. */
export function createDrillKit(ctx: DrillContext): DrillKit {
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
    await swarm.agents.heartbeat(who.address);
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
  const inbox = async (who: Actor): Promise<Notice[]> => {
    const notices = await swarm.notices.readInbox(who.address);
    for (const n of notices) say(`${who.address} inbox: ${n.kind} from ${n.from ?? '-'}: ${n.text}`);
    return notices;
  };
  return { ctx, gates, capacityLog, fail, actor, capacity, gate, work, commit, inbox };
}
