import { BUILTIN_TIERS, dryRunJson, routeTask } from '@bullswarm/dispatch/routing';
import { LANES, type Lane, type RouteTask } from '@bullswarm/pacing';
import { DEFAULT_LANE_TIER } from '@bullswarm/pacing/internal';
import type { DashboardSource } from './dashboard-source';

/** A bad query parameter of a dashboard endpoint (answered 400 naming the parameter). */
export class DashboardInputError extends Error {
  readonly parameter: string;
  constructor(parameter: string, message: string) {
    super(message);
    this.name = 'DashboardInputError';
    this.parameter = parameter;
  }
}

/** The lanes and tiers the "Why this pool?" form offers (built-in tiers and every declared one). */
export async function whyOptions(source: DashboardSource): Promise<{
  readonly lanes: readonly Lane[];
  readonly tiers: string[];
  readonly defaults: typeof DEFAULT_LANE_TIER;
}> {
  const runtime = await source.current();
  const tiers = new Set<string>(BUILTIN_TIERS);
  for (const connector of runtime.connectors.values()) {
    for (const tier of Object.keys(connector.modelProfiles)) tiers.add(tier);
  }
  for (const pool of runtime.state.pools) for (const tier of Object.keys(pool.models)) tiers.add(tier);
  return { lanes: LANES, tiers: [...tiers], defaults: DEFAULT_LANE_TIER };
}

/**
 * `GET /api/why?lane=&effort=`: the dry-run decision for a lane and effort, the object
 * `bullswarm run --dry-run --json` prints (every candidate row, the rejected pools, the reason line
 * and the forecast). Nothing is spawned and nothing is written.
 */
export async function whyJson(source: DashboardSource, lane: string | undefined, effort: string | undefined) {
  if (lane === undefined || !(LANES as readonly string[]).includes(lane)) {
    throw new DashboardInputError(
      'lane',
      `lane "${lane ?? ''}" is not valid: expected one of ${LANES.join(', ')}`,
    );
  }
  const options = await whyOptions(source);
  const tier = effort === undefined || effort === '' ? DEFAULT_LANE_TIER[lane as Lane] : effort;
  if (!options.tiers.includes(tier)) {
    throw new DashboardInputError(
      'effort',
      `effort "${tier}" is not a tier any connector declares: expected one of ${options.tiers.join(', ')}`,
    );
  }
  const runtime = await source.current();
  const task: RouteTask = { lane: lane as Lane, tier, kind: 'single-run' };
  const { decision } = await routeTask(runtime, task);
  return { lane, ...dryRunJson(decision, runtime, tier) };
}
