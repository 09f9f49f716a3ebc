import {
  type BullswarmRuntime,
  checkKnownTier,
  checkLane,
  TaskInputError,
} from '@bullswarm/dispatch/routing';
import type { EffortTier, Lane, RouteTask, TaskRoute } from '@bullswarm/pacing';
import { DEFAULT_LANE_TIER } from '@bullswarm/pacing/internal';
import { z } from 'zod';

/** One of `providers` / `pools` of a route filter. */
const useAvoid = (what: string) =>
  z
    .object({
      use: z.array(z.string()).optional().describe(`only these ${what}`),
      avoid: z.array(z.string()).optional().describe(`never these ${what}`),
    })
    .strict()
    .optional();

/** How reason lines name a pin set by the `pool` argument of these tools. */
export const POOL_ARGUMENT = 'pool';

/**
 * The arguments that describe a task to route, shared by `route` and `run`. Lane and effort are
 * plain strings here and checked by dispatch's task rules (`checkLane`, `checkKnownTier`), so a bad
 * value gets the CLI's words (`lane "x" is not a lane: expected one of analyze, build, chore`).
 */
export const taskShape = {
  lane: z.string().describe('the kind of work: analyze, build or chore'),
  effort: z
    .string()
    .optional()
    .describe('the effort tier: low, medium, high (default: analyze→medium, build→high, chore→low)'),
  pool: z
    .string()
    .optional()
    .describe('pin the task to one pool (id or label); its reason line says `pinned to <pool> (pool)`'),
  providers: useAvoid('provider families (e.g. anthropic, openai)').describe(
    'route filter: provider families to use or avoid (a hard filter before pacing)',
  ),
  pools: useAvoid('pool ids or labels').describe(
    'route filter: pools (ids or labels) to use or avoid (a hard filter before pacing)',
  ),
};

/** The parsed `taskShape` arguments. */
export interface TaskArgs {
  readonly lane: string;
  readonly effort?: string | undefined;
  readonly pool?: string | undefined;
  readonly providers?:
    | { readonly use?: string[] | undefined; readonly avoid?: string[] | undefined }
    | undefined;
  readonly pools?: { readonly use?: string[] | undefined; readonly avoid?: string[] | undefined } | undefined;
}

/** A checked task: lane, tier, and the pin or route filters it carries. */
export interface CheckedTask {
  readonly lane: Lane;
  readonly tier: EffortTier;
  readonly pin?: RouteTask['pin'];
  readonly route?: TaskRoute;
}

/** Checks the task arguments against the home: the CLI's rules, with the argument names. */
export function checkTask(runtime: BullswarmRuntime, args: TaskArgs): CheckedTask {
  const lane = checkLane(args.lane, 'lane');
  const tier = checkKnownTier(runtime, args.effort ?? DEFAULT_LANE_TIER[lane], 'effort');
  const pin =
    args.pool === undefined
      ? undefined
      : {
          poolId: runtime.home.resolvePoolRef(args.pool),
          source: 'operator' as const,
          shownAs: POOL_ARGUMENT,
        };
  const route = checkRoute(runtime, args);
  return { lane, tier, ...(pin ? { pin } : {}), ...(route ? { route } : {}) };
}

function checkRoute(runtime: BullswarmRuntime, args: TaskArgs): TaskRoute | undefined {
  const families = [...new Set([...runtime.connectors.values()].map((c) => c.providerFamily))].sort();
  const family = (name: string, field: string): string => {
    if (!families.includes(name)) {
      throw new TaskInputError({
        message: `${field} "${name}" is not a provider family: expected one of ${families.join(', ')}`,
        field,
        expected: families.join(', '),
      });
    }
    return name;
  };
  const route: { providers?: TaskRoute['providers']; pools?: TaskRoute['pools'] } = {};
  if (args.providers !== undefined) {
    route.providers = {
      ...(args.providers.use ? { use: args.providers.use.map((n) => family(n, 'providers.use')) } : {}),
      ...(args.providers.avoid
        ? { avoid: args.providers.avoid.map((n) => family(n, 'providers.avoid')) }
        : {}),
    };
  }
  if (args.pools !== undefined) {
    route.pools = {
      ...(args.pools.use ? { use: args.pools.use.map((ref) => runtime.home.resolvePoolRef(ref)) } : {}),
      ...(args.pools.avoid ? { avoid: args.pools.avoid.map((ref) => runtime.home.resolvePoolRef(ref)) } : {}),
    };
  }
  return route.providers === undefined && route.pools === undefined ? undefined : route;
}
