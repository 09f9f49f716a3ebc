import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openRuntime } from '@bullswarm/dispatch';
import { DrillFailedError } from '../errors/drill-failed-error';
import { git } from '../git/run-git';
import { loadPlan } from '../plans/plan-location';
import type { SwarmEnv } from '../settings/swarm-env';
import { createSwarm } from '../store/create-swarm';
import { createDrillKit, type DrillContext } from './drill-kit';
import { runLanePhases } from './drill-lanes';
import { runLeadPhases } from './drill-lead';
import { type DrillReport, writeDrillEvidence } from './drill-report';
import { createDrillRepo, prepareDrillDir, writeDrillHome } from './drill-setup';

export type { DrillGate, DrillReport } from './drill-report';

/** Options of {@link runDrill}. */
export interface RunDrillOptions {
  /** The scratch directory (created; must be new or empty). Default: a new temp directory. */
  readonly dir?: string;
  /** The base environment (default `process.env`); bullswarm's and the kit's own variables are left out. */
  readonly env?: SwarmEnv;
  /** Receives one line per step as the drill goes. */
  readonly onProgress?: (line: string) => void;
  /**
   * Keep the temporary scratch directory the drill makes when no `dir` is given. Default: it is
   * removed once the drill passes (a `dir` given is always kept; a failed drill keeps its scratch for
   * inspection, named by `DrillFailedError.dir`).
   */
  readonly keep?: boolean;
}

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
  const dir = prepareDrillDir(options.dir);
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
  const plan = createDrillRepo(repoDir, join(dir, 'origin.git'));
  const planDoc = loadPlan(plan);
  say(`scratch ${dir}: home ${home}, repository ${plan.repo}, plan ${plan.label}`);

  const runtime = await openRuntime({ home, env: baseEnv, createStore: true, userHome: home });
  let passed = false;
  try {
    const swarm = await createSwarm({
      store: await runtime.requireStore(),
      env: baseEnv,
      clock: runtime.clock,
    });
    const report = await drill({ dir, home, plan, planDoc, runtime, swarm, baseEnv, lanesDir, say, steps });
    passed = true;
    return report;
  } catch (error) {
    if (DrillFailedError.isInstance(error)) throw error;
    throw new DrillFailedError({
      step: steps.at(-1) ?? 'setup',
      problem: (error as Error).message ?? String(error),
      dir,
      cause: error,
    });
  } finally {
    await runtime.close();
    // The temp directory made above (about 1 MB: a repository, a home, lane work trees) goes once
    // the drill has passed, unless kept.
    if (passed && options.dir === undefined && options.keep !== true) {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  }
}

/** The drill's steps in order, then the evidence. */
async function drill(ctx: DrillContext): Promise<DrillReport> {
  const { dir, plan, runtime, swarm, say } = ctx;
  const kit = createDrillKit(ctx);
  const cast = await runLanePhases(kit);
  const { epoch, fencing, remoteChecks } = await runLeadPhases(kit, cast);
  const { laneA, laneB, laneC, successor, ask, reply, flag, hysteresis } = cast;

  const head = git(plan.repo, ['rev-parse', 'HEAD']).trim();
  const packets = (await swarm.handoffs.list(plan)).map((h) => ({
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
    epochs: await swarm.leads.history(plan),
    gates: kit.gates,
    ask: { from: laneC.address, to: laneA.address, askId: ask.id, replyId: reply.id, answer: flag },
    capacity: kit.capacityLog,
    fencing,
    remote: { url: git(plan.repo, ['remote', 'get-url', 'origin']).trim(), checks: remoteChecks },
    hysteresis,
    tag: 'drill-done',
    head,
    humanKeystrokes: 0,
    steps: ctx.steps,
  };
  writeDrillEvidence(plan, report, { by: cast.deputy.address, epoch, at: runtime.clock() });
  say(`evidence: ${report.evidencePath}`);
  return report;
}
