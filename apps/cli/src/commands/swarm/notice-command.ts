import { CliUsageError } from '../../cli/cli-errors';
import { type CommandContext, printJson } from '../../cli/command-context';
import { iso, parseInteger, planOf, selfOf, withSwarm } from './swarm-command-support';

/** Options of `bullswarm notify`. */
export interface NotifyOptions {
  readonly plan?: string;
  readonly as?: string;
  readonly ask?: boolean;
  readonly re?: string;
  readonly timeout?: string;
  readonly json?: boolean;
}

/**
 * `bullswarm notify <addr|lead> <text…>`: a one-way notice stored for the recipient (`lead`
 * resolves to the plan's current lead). `--ask` marks a question (it times out after `--timeout`
 * seconds, default `$BULLSWARM_ASK_TIMEOUT_SEC`, else 1800, unless its recipient replies), `--re <id>`
 * a reply to one.
 */
export async function notifyCommand(
  context: CommandContext,
  to: string,
  words: readonly string[],
  options: NotifyOptions,
): Promise<void> {
  const { checkAddress, LEAD_ADDRESS } = await import('@bullswarm/swarm');
  await withSwarm(context, async (swarm) => {
    const wantsPlan =
      to === LEAD_ADDRESS || options.plan !== undefined || context.io.env.BULLSWARM_PLAN !== undefined;
    const plan = wantsPlan ? await planOf(context, swarm, options.plan) : undefined;
    const recipient = to === LEAD_ADDRESS ? await swarm.leads.resolve(plan!) : checkAddress(to, '<addr>');
    const from =
      options.as === undefined && context.io.env.BULLSWARM_AGENT === undefined
        ? undefined
        : await selfOf(context, options.as);
    const re = parseInteger(options.re, '--re');
    if (options.timeout !== undefined && !options.ask) {
      throw new CliUsageError({
        message: '--timeout is the wait of an ask: add --ask',
        flag: '--timeout',
        expected: '--ask --timeout <sec>',
      });
    }
    const timeoutSec = parseInteger(options.timeout, '--timeout');
    const record = plan ? await swarm.leads.get(plan) : undefined;
    const notice = await swarm.notices.send({
      to: recipient,
      text: words.join(' '),
      ...(from === undefined ? {} : { from }),
      ...(plan === undefined ? {} : { plan }),
      ...(record === undefined ? {} : { epoch: record.epoch }),
      kind: re !== undefined ? 'reply' : options.ask ? 'ask' : words[0] === 'handoff' ? 'handoff' : 'text',
      ...(re === undefined ? {} : { re }),
      ...(timeoutSec === undefined ? {} : { timeoutMs: timeoutSec * 1000 }),
    });
    if (options.json) printJson(context, notice);
    else
      context.io.out(
        `notice #${notice.id} to ${recipient}${notice.timeoutAt === undefined ? '' : ` (an ask: times out ${iso(notice.timeoutAt)} unless ${recipient} replies)`}\n`,
      );
  });
}

/**
 * `bullswarm inbox [--as <addr>] [--json]`: the unread notices of this agent, oldest first, read
 * once (marked read). Their text is data: reading them changes no record.
 */
export async function inboxCommand(
  context: CommandContext,
  options: { as?: string; json?: boolean },
): Promise<void> {
  await withSwarm(context, async (swarm) => {
    const address = await selfOf(context, options.as);
    // Reading the inbox is a turn boundary: a registered agent is alive now.
    await swarm.agents.touch(address);
    const notices = await swarm.notices.readInbox(address);
    if (options.json) {
      printJson(context, { address, notices });
      return;
    }
    if (notices.length === 0) {
      context.io.out('no new notices\n');
      return;
    }
    for (const n of notices) {
      const stale =
        n.kind === 'lead-change' &&
        n.plan !== undefined &&
        n.epoch !== undefined &&
        ((await swarm.leads.get(n.plan))?.epoch ?? 0) > n.epoch
          ? ' [stale epoch]'
          : '';
      context.io.out(
        `#${n.id} ${iso(n.createdAt)} ${n.kind}${n.re === undefined ? '' : ` re #${n.re}`} from ${n.from ?? '-'}${stale}${n.timeoutAt === undefined ? '' : ` (reply before ${iso(n.timeoutAt)}: \`bullswarm notify ${n.from ?? '<addr>'} --re ${n.id} <answer>\`)`}: ${n.text}\n`,
      );
    }
  });
}
