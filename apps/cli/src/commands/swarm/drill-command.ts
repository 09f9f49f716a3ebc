import { resolve } from 'node:path';
import { type CommandContext, printJson } from '../../cli/command-context';
import { asCliError, printLines, redacted } from './swarm-command-support';

/**
 * `bullswarm swarm drill [--dir <scratch>] [--json]`: proves the swarm loop with no human
 * keystroke on a scratch repository and home (see `runDrill`). Progress goes to stderr; the
 * summary (or the whole report with `--json`) to stdout. Exit 1 when a step does not happen as the
 * protocol says (the scratch directory is kept).
 */
export async function drillCommand(
  context: CommandContext,
  options: { dir?: string; json?: boolean },
): Promise<void> {
  const { runDrill } = await import('@bullswarm/swarm');
  let report: Awaited<ReturnType<typeof runDrill>>;
  try {
    report = await runDrill({
      // An empty --dir is refused by the drill (resolving it would name the working directory).
      ...(options.dir === undefined
        ? {}
        : { dir: options.dir.trim() === '' ? options.dir : resolve(context.io.cwd, options.dir) }),
      env: context.io.env,
      onProgress: (line) => context.io.err(`${line}\n`),
    });
  } catch (error) {
    throw await redacted(context, await asCliError(error));
  }
  if (options.json) {
    printJson(context, report);
    return;
  }
  const epochs = report.epochs.filter((e) => ['claim', 'handover', 'takeover'].includes(e.kind));
  printLines(context, [
    `drill passed: ${report.plan} in ${report.repo}`,
    `lanes: ${report.lanes.map((l) => `${l.task}=${l.address}@${l.poolId}`).join(', ')}`,
    `packets: ${report.packets.map((p) => `${p.task} (${p.reason}) by ${p.author} → ${p.acceptedBy ?? '-'}`).join('; ')}`,
    `successor: ${report.successor.address} on ${report.successor.poolId} (spent ${report.successor.spentPoolId})`,
    `epochs: ${epochs.map((e) => `${e.epoch}=${e.lead}`).join(', ')}`,
    `ask: ${report.ask.from} → ${report.ask.to}: ${report.ask.answer}`,
    `gates: ${report.gates
      .filter((g) => g.phase === 'main')
      .map((g) => `${g.task} ${g.passed ? 'passed' : 'FAILED'}`)
      .join(', ')} on main`,
    `fencing: ${report.fencing.refused} at epoch ${report.fencing.epoch} refused; tag ${report.tag} at ${report.head.slice(0, 12)}`,
    `evidence: ${report.evidencePath}`,
  ]);
}
