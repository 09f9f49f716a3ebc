import { join } from 'node:path';
import {
  type BullswarmRuntime,
  type DispatchEvent,
  type DispatchResult,
  dispatchTask,
} from '@bullswarm/dispatch';
import type { EffortTier, Lane, TaskPin } from '@bullswarm/pacing';
import { appendJournal } from '../plans/journal';
import type { PlanLocation } from '../plans/plan-location';
import { BULLSWARM_AGENT, BULLSWARM_PLAN } from '../settings/swarm-env';
import type { Swarm } from '../store/create-swarm';

/** A lane is pinned to its leased account by the lead: an operator's pin, named `lease` in its reason line. */
const LEASE_PIN: Pick<TaskPin, 'source' | 'shownAs'> = { source: 'operator', shownAs: 'lease' };

/** Options of {@link runLaneWork}. */
export interface RunLaneWorkOptions {
  readonly plan: PlanLocation;
  readonly task: string;
  /** The lane's address (`BULLSWARM_AGENT` of the agent). */
  readonly address: string;
  /** The account leased to the lane: the run is pinned to it. */
  readonly poolId: string;
  /** The checkout the agent works in. */
  readonly cwd: string;
  readonly prompt: string;
  readonly lane: Lane;
  readonly tier?: EffortTier;
  /** The lead that launched it (recorded in the journal). */
  readonly launchedBy: string;
  /** Where the attempt files go (default `<plan>/analysis_results/runs/<task>/<address>`). */
  readonly outputDir?: string;
  /** The packet the agent resumes from, for successors (`BULLSWARM_PACKET`). */
  readonly packetPath?: string;
  readonly onEvent?: (event: DispatchEvent) => void;
  /**
   * Attach the spawned agent's pid to the lane's address (default true): the agent is the lane,
   * and its exit makes the lane unreachable. The drill passes false: its lanes' protocol runs in
   * the drill process, which stays registered.
   */
  readonly attachPid?: boolean;
  readonly signal?: AbortSignal;
  readonly timeoutSec?: number;
}

/**
 * Runs a lane's agent through dispatch, pinned to the account leased to it, with its swarm
 * environment (`BULLSWARM_AGENT`, `BULLSWARM_PLAN`, `BULLSWARM_HOME`, and `BULLSWARM_PACKET` for a
 * successor; dispatch adds `BULLSWARM_POOL`). The agent's pid is attached to its address as soon
 * as it is spawned (reachability). The launch and the result are journalled as delegation events
 * (`lane.launched`, `lane.result`).
 */
export async function runLaneWork(
  runtime: BullswarmRuntime,
  swarm: Swarm,
  options: RunLaneWorkOptions,
): Promise<DispatchResult> {
  const { plan } = options;
  const now = () => swarm.context.clock();
  const epoch = (await swarm.leads.get(plan))?.epoch;
  appendJournal(
    plan.journalFile,
    {
      type: 'delegation',
      event: 'lane.launched',
      plan: plan.id,
      by: options.launchedBy,
      ...(epoch === undefined ? {} : { epoch }),
      task: options.task,
      lane: options.address,
      pool: options.poolId,
      ...(options.packetPath === undefined ? {} : { packet: options.packetPath }),
    },
    now(),
  );
  // The pid is attached while the run goes on (an event callback does not wait); every attach is
  // awaited before this returns, and a failed one fails the launch.
  const attaches: Promise<void>[] = [];
  let attachError: unknown;
  const result = await dispatchTask(runtime, {
    action: `${options.task}-${options.address}`.replace(/[^A-Za-z0-9._-]/g, '_'),
    prompt: options.prompt,
    lane: options.lane,
    ...(options.tier === undefined ? {} : { tier: options.tier }),
    cwd: options.cwd,
    outputDir: options.outputDir ?? join(plan.analysisDir, 'runs', options.task, options.address),
    // The pin names pacing's operator pin (`PinSource`); it shows in the routing reason line.
    pin: { poolId: options.poolId, ...LEASE_PIN },
    kind: 'single-run',
    extraEnv: {
      [BULLSWARM_AGENT]: options.address,
      [BULLSWARM_PLAN]: `${plan.repo}/${plan.id}`,
      BULLSWARM_HOME: runtime.home.home,
      ...(options.packetPath === undefined ? {} : { BULLSWARM_PACKET: options.packetPath }),
    },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.timeoutSec === undefined ? {} : { timeoutSec: options.timeoutSec }),
    onEvent: (event) => {
      if (event.type === 'attempt.started' && event.pid !== undefined && options.attachPid !== false) {
        attaches.push(
          swarm.agents.setPid(options.address, event.pid).catch((error: unknown) => {
            attachError ??= error;
          }),
        );
      }
      options.onEvent?.(event);
    },
  });
  await Promise.all(attaches);
  if (attachError !== undefined) throw attachError;
  appendJournal(
    plan.journalFile,
    {
      type: 'delegation',
      event: 'lane.result',
      plan: plan.id,
      by: options.address,
      ...(epoch === undefined ? {} : { epoch }),
      task: options.task,
      pool: result.poolId,
      ok: result.ok,
      kind: result.kind,
      ...(result.why === undefined ? {} : { why: result.why }),
      attempts: result.attempts.map((a) => a.outputFile),
    },
    now(),
  );
  return result;
}
