import { resolve } from 'node:path';
import { type CommandContext, printJson } from '../../cli/command-context';
import { asCliError, printLines, redacted } from './swarm-command-support';

/**
 * `bullswarm swarm drill [--dir <scratch>] [--keep] [--json]`: proves the swarm loop with no human
 * keystroke on a scratch repository and home (see `runDrill`). Progress goes to stderr; the
 * summary (or the whole report with `--json`, plus `kept`) to stdout. Without `--dir` the scratch
 * is a temp directory, removed once the drill passes unless `--keep` (the summary says which). Exit 1
 * when a step does not happen as the protocol says (the scratch directory is kept and named).
 */
export async function drillCommand(
  context: CommandContext,
  options: { dir?: string; keep?: boolean; json?: boolean },
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
      keep: options.keep === true,
      onProgress: (line) => context.io.err(`${line}\n`),
    });
  } catch (error) {
    throw await redacted(context, await asCliError(error));
  }
  const kept = options.dir !== undefined || options.keep === true;
  if (options.json) {
    printJson(context, { ...report, kept });
    return;
  }
  const epochs = report.epochs.filter((e) => ['claim', 'handover', 'takeover'].includes(e.kind));
  printLines(context, [
    kept ? `drill passed: ${report.plan} in ${report.repo}` : `drill passed: ${report.plan}`,
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
    kept
      ? `evidence: ${report.evidencePath}`
      : `scratch ${report.dir} removed (--keep keeps it, with the evidence in plans/drill/analysis_results/)`,
  ]);
}
