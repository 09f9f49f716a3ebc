import { type CommandContext, printJson } from '../../cli/command-context';
import { iso, parseInteger, planOf, printLines, redacted, selfOf, withSwarm } from './swarm-command-support';

/**
 * `bullswarm escalate <text…> --class <C1–C7> --plan <P> [--task <T>]`: a critical item for the
 * developer. Without a class it is refused (exit 2): a question that names none is a decision the
 * agent owes. Blocks the task's dependency chain, not the swarm; the lead is notified.
 */
export async function escalateCommand(
  context: CommandContext,
  words: readonly string[],
  options: { class?: string; plan?: string; task?: string; as?: string; json?: boolean },
): Promise<void> {
  const { parseEscalationClass } = await import('@bullswarm/swarm');
  // The class is checked before anything is opened: an unclassed question never reaches a record.
  try {
    parseEscalationClass(options.class);
  } catch (error) {
    throw await redacted(context, error);
  }
  await withSwarm(context, async (swarm) => {
    const plan = await planOf(context, swarm, options.plan);
    const by = await selfOf(context, options.as);
    const record = await swarm.leads.get(plan);
    const escalation = await swarm.escalations.raise(plan, {
      class: options.class,
      text: words.join(' '),
      by,
      ...(options.task === undefined ? {} : { task: options.task }),
      ...(record && record.releasedAt === undefined ? { notify: record.lead } : {}),
    });
    if (options.json) printJson(context, escalation);
    else
      context.io.out(
        `escalation #${escalation.id} ${escalation.class}${escalation.task ? ` blocks task ${escalation.task} and its dependents` : ''}\n`,
      );
  });
}

/** `bullswarm escalation answer <id> <answer…> --plan <P> [--relayed-by <addr>]`: the developer's answer. */
export async function escalationAnswerCommand(
  context: CommandContext,
  id: string,
  words: readonly string[],
  options: { plan?: string; relayedBy?: string; json?: boolean },
): Promise<void> {
  await withSwarm(context, async (swarm) => {
    const plan = await planOf(context, swarm, options.plan);
    const escalation = await swarm.escalations.answer(plan, {
      id: parseInteger(id, '<id>')!,
      answer: words.join(' '),
      ...(options.relayedBy === undefined ? {} : { relayedBy: options.relayedBy }),
    });
    if (options.json) printJson(context, escalation);
    else
      context.io.out(
        `answered escalation #${escalation.id}${escalation.relayedBy ? ` (relayed by ${escalation.relayedBy})` : ''}\n`,
      );
  });
}

/** `bullswarm escalation list --plan <P> [--open] [--json]`. */
export async function escalationListCommand(
  context: CommandContext,
  options: { plan?: string; open?: boolean; json?: boolean },
): Promise<void> {
  await withSwarm(context, async (swarm) => {
    const plan = await planOf(context, swarm, options.plan);
    const list = await swarm.escalations.list(plan, { open: options.open === true });
    if (options.json) {
      printJson(context, { escalations: list });
      return;
    }
    if (list.length === 0) {
      context.io.out('no escalations\n');
      return;
    }
    printLines(
      context,
      list.map(
        (e) =>
          `#${e.id} ${e.class}${e.task ? ` task ${e.task}` : ''} by ${e.raisedBy} ${iso(e.raisedAt)}: ${e.text}${e.answeredAt === undefined ? ' [OPEN]' : ` → ${e.answer}${e.relayedBy ? ` (relayed by ${e.relayedBy})` : ''}`}`,
      ),
    );
  });
}
