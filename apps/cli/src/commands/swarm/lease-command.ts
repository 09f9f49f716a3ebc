import { type CommandContext, printJson } from '../../cli/command-context';
import { iso, parseInteger, planOf, printLines, selfOf, withSwarm } from './swarm-command-support';

/** Options of `bullswarm lease <pool>`. */
export interface LeaseCommandOptions {
  readonly to: string;
  readonly owner: string;
  readonly plan?: string;
  readonly task?: string;
  readonly ttl?: string;
  readonly json?: boolean;
}

/**
 * `bullswarm lease <pool> --to <addr> --owner <lead>`: holds a declared account for one lane. A
 * second lease on a held account is refused, and so is the lead's own account.
 */
export async function leaseCommand(
  context: CommandContext,
  ref: string,
  options: LeaseCommandOptions,
): Promise<void> {
  const { loadPlan, resolvePool } = await import('@bullswarm/swarm');
  await withSwarm(context, async (swarm, runtime) => {
    const poolId = resolvePool(runtime, ref);
    const plan = options.plan === undefined ? undefined : await planOf(context, swarm, options.plan);
    let declaredPoolIds: string[] | undefined;
    if (plan) {
      // Only the plan's current lead leases for it, and only among the accounts it declares.
      const record = await swarm.leads.get(plan);
      await swarm.leads.assertCurrentEpoch(plan, {
        epoch: record?.epoch ?? 1,
        address: options.owner,
        action: `lease ${poolId}`,
      });
      declaredPoolIds = loadPlan(plan).pools?.map((p) => resolvePool(runtime, p));
    }
    const ttlSec = parseInteger(options.ttl, '--ttl');
    const ownerPool =
      context.io.env.BULLSWARM_AGENT === options.owner && context.io.env.BULLSWARM_POOL
        ? context.io.env.BULLSWARM_POOL
        : undefined;
    const lease = await swarm.leases.acquire({
      poolId,
      holder: options.to,
      owner: options.owner,
      ...(ownerPool === undefined ? {} : { ownerPoolId: ownerPool }),
      ...(plan === undefined ? {} : { plan }),
      ...(declaredPoolIds === undefined ? {} : { declaredPoolIds }),
      ...(options.task === undefined ? {} : { task: options.task }),
      ...(ttlSec === undefined ? {} : { ttlMs: ttlSec * 1000 }),
    });
    if (options.json) printJson(context, lease);
    else
      context.io.out(
        `leased ${lease.poolId} to ${lease.holder} (owner ${lease.owner}) until ${iso(lease.expiresAt)} unless renewed\n`,
      );
  });
}

/**
 * `bullswarm lease release <pool> --as <addr>`: by its holder or its owner only. Who releases is
 * required (`--as`, else `$BULLSWARM_AGENT`; neither is a usage error, exit 2).
 */
export async function leaseReleaseCommand(
  context: CommandContext,
  ref: string,
  options: { as?: string },
): Promise<void> {
  const { resolvePool } = await import('@bullswarm/swarm');
  await withSwarm(context, async (swarm, runtime) => {
    const poolId = resolvePool(runtime, ref);
    const by = await selfOf(context, options.as);
    const lease = await swarm.leases.release(poolId, by);
    context.io.out(`released ${lease.poolId} (held by ${lease.holder}, owner ${lease.owner})\n`);
  });
}

/** `bullswarm lease list [--json]`: active leases (expired ones are released first). */
export async function leaseListCommand(context: CommandContext, options: { json?: boolean }): Promise<void> {
  await withSwarm(context, async (swarm) => {
    const leases = await swarm.leases.list();
    if (options.json) {
      printJson(context, { leases });
      return;
    }
    if (leases.length === 0) {
      context.io.out('no leases\n');
      return;
    }
    printLines(
      context,
      leases.map(
        (l) =>
          `${l.poolId} holder=${l.holder} owner=${l.owner}${l.plan ? ` plan=${l.plan.id}` : ''}${l.task ? ` task=${l.task}` : ''} expires=${iso(l.expiresAt)}`,
      ),
    );
  });
}
