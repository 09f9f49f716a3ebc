import { CliUsageError } from '../../cli/cli-errors';
import { type CommandContext, printJson } from '../../cli/command-context';
import { iso, parseInteger, planOf, printLines, selfOf, withSwarm } from './swarm-command-support';

/** Options of `bullswarm agent register`. */
export interface AgentRegisterOptions {
  readonly pid?: string;
  readonly pool?: string;
  readonly plan?: string;
  readonly json?: boolean;
}

/** `bullswarm agent register [<addr>] [--pid <n>] [--pool <p>] [--plan <P>]`: an address and a first heartbeat. */
export async function agentRegisterCommand(
  context: CommandContext,
  address: string | undefined,
  options: AgentRegisterOptions,
): Promise<void> {
  const { resolvePool } = await import('@bullswarm/swarm');
  await withSwarm(
    context,
    async (swarm, runtime) => {
      const self = await selfOf(context, address, '<addr>');
      const pid = parseInteger(options.pid, '--pid');
      const poolRef = options.pool ?? (address === undefined ? context.io.env.BULLSWARM_POOL : undefined);
      const poolId = poolRef === undefined || poolRef === '' ? undefined : resolvePool(runtime, poolRef);
      const plan = options.plan === undefined ? undefined : await planOf(context, swarm, options.plan);
      const agent = await swarm.agents.register({
        address: self,
        ...(pid === undefined ? {} : { pid }),
        ...(poolId === undefined ? {} : { poolId }),
        ...(plan === undefined ? {} : { plan }),
      });
      if (options.json) printJson(context, agent);
      else
        context.io.out(
          `registered ${agent.address}${agent.poolId ? ` on ${agent.poolId}` : ''}${agent.pid ? ` (pid ${agent.pid})` : ''}\n`,
        );
    },
    { address: '<addr>' },
  );
}

/** `bullswarm agent heartbeat [<addr>]`: alive now; renews the leases it holds. */
export async function agentHeartbeatCommand(
  context: CommandContext,
  address: string | undefined,
): Promise<void> {
  await withSwarm(
    context,
    async (swarm) => {
      const self = await selfOf(context, address, '<addr>');
      if ((await swarm.agents.get(self)) === undefined) {
        const expected = `a registered agent (run \`bullswarm agent register ${self}\` first)`;
        throw new CliUsageError({
          message: `<addr> "${self}" is not valid: expected ${expected}`,
          flag: '<addr>',
          expected,
        });
      }
      const { renewedLeases } = await swarm.agents.heartbeat(self);
      context.io.out(`heartbeat ${self}: ${renewedLeases} lease${renewedLeases === 1 ? '' : 's'} renewed\n`);
    },
    { address: '<addr>' },
  );
}

/** `bullswarm agent deregister [<addr>]`: unreachable from now on. */
export async function agentDeregisterCommand(
  context: CommandContext,
  address: string | undefined,
): Promise<void> {
  await withSwarm(
    context,
    async (swarm) => {
      const self = await selfOf(context, address, '<addr>');
      const known = await swarm.agents.deregister(self);
      context.io.out(known ? `deregistered ${self}\n` : `${self} was not registered\n`);
    },
    { address: '<addr>' },
  );
}

/** `bullswarm agent list [--json]`: every address with its reachability and why. */
export async function agentListCommand(context: CommandContext, options: { json?: boolean }): Promise<void> {
  await withSwarm(context, async (swarm) => {
    const agents = await swarm.agents.list();
    if (options.json) {
      printJson(context, { agents });
      return;
    }
    if (agents.length === 0) {
      context.io.out('no agents registered\n');
      return;
    }
    printLines(
      context,
      agents.map(
        (a) =>
          `${a.address} ${a.reachable ? 'reachable' : 'UNREACHABLE'} (${a.why})${a.poolId ? ` pool=${a.poolId}` : ''}${a.pid ? ` pid=${a.pid}` : ''} heartbeat=${iso(a.heartbeatAt)}`,
      ),
    );
  });
}
