import type { MeterService } from '@bullswarm/meters';
import type { EffortTier, RouteTask } from '@bullswarm/pacing';
import { DEFAULT_LANE_TIER } from '@bullswarm/pacing/internal';
import type { AsyncBullswarmStore } from '@bullswarm/store';
import type { AgentLaunchOptions } from '../attempt/agent-launch';
import type { BullswarmRuntime } from '../runtime/open-runtime';
import type { PoolDetail } from '../snapshots/build-pool-snapshots';
import type { DispatchEvent, DispatchRequest, ThrottlePolicy, WatchdogSettings } from './dispatch-types';
import { validateDispatchRequest } from './validate-request';
import { resolveWatchdogSettings } from './watchdog-settings';

/**
 * What one dispatched task works with, fixed from its start: the checked request, the clocks, the
 * tier and throttle policy it resolves to, and the task as routing sees it. The picker, the
 * attempt and the record of dispatch-task.ts share it; none of it changes while the task runs.
 */
export interface TaskSetup {
  readonly runtime: BullswarmRuntime;
  readonly request: DispatchRequest;
  /** The pool a pin names, resolved from an id or a label; undefined without a pin. */
  readonly pinnedPoolId: string | undefined;
  readonly watchdog: WatchdogSettings;
  readonly store: AsyncBullswarmStore;
  readonly meters: MeterService;
  readonly clock: () => number;
  readonly tier: EffortTier;
  readonly policy: ThrottlePolicy;
  /** The task as routing sees it at every pick (the pools left out are added per pick). */
  readonly baseTask: RouteTask;
  /** Hands an event to the request's `onEvent`. */
  readonly emit: (event: DispatchEvent) => void;
  /** Who an agent on `poolId` runs as, for its probe and its attempts alike. */
  readonly launchOptions: (poolId: string, detail: PoolDetail) => AgentLaunchOptions;
}

/**
 * Checks the request (see {@link validateDispatchRequest}) and resolves what the task keeps for
 * its whole run.
 *
 * @throws DispatchError for a malformed request or a pin naming an unknown pool.
 */
export async function prepareTask(
  runtime: BullswarmRuntime,
  request: DispatchRequest,
  settings: Partial<WatchdogSettings>,
): Promise<TaskSetup> {
  const pinnedPoolId = validateDispatchRequest(runtime, request);
  const watchdog: WatchdogSettings = { ...resolveWatchdogSettings(runtime.env), ...settings };
  const tier = request.tier ?? DEFAULT_LANE_TIER[request.lane];
  const callerMarkers = [...new Set([...runtime.connectors.values()].flatMap((c) => c.callerEnv))];
  const baseTask: RouteTask = {
    lane: request.lane,
    tier,
    kind: request.kind,
    ...(request.capabilities === undefined ? {} : { capabilities: request.capabilities }),
    ...(request.route === undefined ? {} : { route: request.route }),
    ...(pinnedPoolId === undefined ? {} : { pin: { ...request.pin!, poolId: pinnedPoolId } }),
  };
  return {
    runtime,
    request,
    pinnedPoolId,
    watchdog,
    store: await runtime.requireStore(),
    meters: await runtime.requireMeters(),
    clock: runtime.clock,
    tier,
    policy: request.throttlePolicy ?? (request.kind === 'single-run' ? 'record' : 'backoff'),
    baseTask,
    emit: (event) => request.onEvent?.(event),
    launchOptions: (poolId, detail) => ({
      connector: detail.connector!,
      poolId,
      account: detail.account,
      accountEnv: detail.accountEnv,
      bullswarmHome: runtime.home.home,
      userHome: runtime.userHome,
      env: runtime.env,
      callerMarkers,
      ...(request.extraEnv === undefined ? {} : { extraEnv: request.extraEnv }),
      ...(detail.pool.command === undefined ? {} : { command: detail.pool.command }),
    }),
  };
}
