import { LANES, type Lane } from '@bullswarm/pacing';
import { CliUsageError } from '../../cli/cli-errors';
import { type CommandContext, printJson } from '../../cli/command-context';
import { planOf, withSwarm } from './swarm-command-support';

/** Options of `bullswarm pick`. */
export interface PickCommandOptions {
  readonly owner: string;
  readonly exclude?: readonly string[];
  readonly plan?: string;
  readonly lane?: string;
  readonly effort?: string;
  readonly long?: boolean;
  readonly json?: boolean;
}

/**
 * `bullswarm pick <kind> --owner <lead> [--exclude @<pool>]…`: the declared accounts ranked by
 * pacing for a kind of work (a connector id, a provider family, or `any`), leaving out accounts
 * leased to lanes and the owner's own. `--long`: accounts of known capacity first (a long task).
 * Prints the best first; exit 1 when none can take it — with `--plan`, saying whether to wait (for
 * a lane's account, or a reset within the plan's horizon) or that the plan is parked (no reset
 * within the horizon: the soonest reset recorded, a C7 escalation sent once).
 */
export async function pickCommand(
  context: CommandContext,
  kind: string,
  options: PickCommandOptions,
): Promise<void> {
  if (options.lane !== undefined && !(LANES as readonly string[]).includes(options.lane)) {
    throw new CliUsageError({
      message: `--lane "${options.lane}" is not a lane: expected one of ${LANES.join(', ')}`,
      flag: '--lane',
    });
  }
  const { checkAddress, loadPlan, noAccountError, parkWhenExhausted, pickAccount, planHorizonMs } =
    await import('@bullswarm/swarm');
  await withSwarm(context, async (swarm, runtime) => {
    const owner = checkAddress(options.owner, '--owner');
    const location = options.plan === undefined ? undefined : await planOf(context, swarm, options.plan);
    const plan = location === undefined ? undefined : loadPlan(location);
    const pick = await pickAccount(runtime, swarm, {
      kind,
      owner,
      ...(options.exclude === undefined
        ? {}
        : { exclude: options.exclude, excludeReason: 'excluded (--exclude)' }),
      ...(options.long === true ? { long: true } : {}),
      ...(plan === undefined ? {} : { plan }),
      ...(options.lane === undefined ? {} : { lane: options.lane as Lane }),
      ...(options.effort === undefined ? {} : { tier: options.effort }),
      env: context.io.env,
    });
    if (options.json) {
      printJson(context, {
        kind: pick.kind,
        best: pick.best?.poolId ?? null,
        ranked: pick.ranked.map((a) => ({
          poolId: a.poolId,
          label: a.label,
          connectorId: a.connectorId,
          providerFamily: a.providerFamily,
          capacity: a.capacity,
          freePct: a.freePct,
          pace: a.row.pace,
          effectiveSurplus: a.row.pace === null ? null : a.row.effectiveSurplus,
          inflight: a.row.inflight,
        })),
        leftOut: pick.leftOut,
        reason: pick.reason,
      });
    } else {
      pick.ranked.forEach((a, index) => {
        const pace = a.row.pace === null ? '-' : a.row.pace.toFixed(1);
        context.io.out(
          `${index + 1}. ${a.poolId}${a.label !== a.poolId ? ` (@${a.label})` : ''} surplus=${pace} inflight=${a.row.inflight} capacity=${a.capacity}${a.freePct === null ? '' : ` ${Math.round(a.freePct)}%`}\n`,
        );
      });
      for (const out of pick.leftOut) context.io.err(`left out ${out.poolId}: ${out.reason}\n`);
    }
    if (!pick.best) {
      // With a plan: wait for a lease or a reset within its horizon, or park it (C7, once).
      throw noAccountError(
        pick,
        location === undefined || plan === undefined
          ? undefined
          : await parkWhenExhausted(swarm, location, { pick, horizonMs: planHorizonMs(plan), by: owner }),
      );
    }
  });
}
