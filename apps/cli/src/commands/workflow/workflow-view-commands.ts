import { formatTime } from '@bullswarm/pacing/internal';
import { CliExit } from '../../cli/cli-errors';
import { type CommandContext, openCliRuntime, printJson } from '../../cli/command-context';
import { EXIT } from '../../cli/exit-codes';
import { alignColumns } from '../../output/align-columns';
import { stdoutViewStream, withCliErrors } from './workflow-cli-support';

/** `bullswarm workflow list`: the runs of the home, newest first. */
export async function workflowListCommand(
  context: CommandContext,
  options: { readonly json?: boolean },
): Promise<void> {
  const { listRuns } = await import('@bullswarm/workflow');
  const runtime = await openCliRuntime(context);
  let rows: ReturnType<typeof listRuns>;
  try {
    rows = listRuns(runtime.home.workflowsDir);
  } finally {
    await runtime.close();
  }
  if (options.json) {
    printJson(
      context,
      rows.map((row) => ({ ...row, createdAt: row.createdAt === 0 ? null : formatTime(row.createdAt) })),
    );
    return;
  }
  if (rows.length === 0) {
    context.io.out('no workflow runs in this home (start one with `bullswarm workflow goal <program>`)\n');
    return;
  }
  const table = [
    ['RUN', 'NAME', 'STATUS', 'STEPS', 'STARTED'],
    ...rows.map((row) => [
      row.runId,
      row.name ?? '-',
      row.problem ? 'unreadable' : `${row.outcome}${row.viewOnly ? ' (view-only)' : ''}`,
      row.problem
        ? row.problem
        : `✓ ${row.counts.ok} ✗ ${row.counts.failed} ↩ ${row.counts.needsYou} ⋈ ${row.counts.blocked}` +
          (row.counts.running + row.counts.pending > 0
            ? ` · ${row.counts.running + row.counts.pending} to go`
            : ''),
      row.createdAt === 0 ? '-' : formatTime(row.createdAt),
    ]),
  ];
  for (const line of alignColumns(table)) context.io.out(`${line}\n`);
}

/** `bullswarm workflow show <runId>`: the run's view once, or `--json` its report. */
export async function workflowShowCommand(
  context: CommandContext,
  runId: string,
  options: { readonly json?: boolean },
): Promise<void> {
  const { loadRun, buildReport, renderRunView } = await import('@bullswarm/workflow');
  const runtime = await openCliRuntime(context);
  try {
    await refuseBlindCaller(context, runtime.home.workflowsDir, runId, 'show');
    const loaded = await withCliErrors(async () => loadRun(runtime.home.workflowsDir, runId));
    if (options.json) {
      printJson(context, {
        ...buildReport(loaded.state, loaded.live),
        viewOnly: loaded.viewOnly,
        live: loaded.live,
      });
      return;
    }
    const width = context.io.stdoutIsTTY ? (process.stdout.columns ?? 100) : 100;
    const lines = renderRunView(loaded.state, {
      width,
      now: Date.now(),
      live: loaded.live,
      reportPath: loaded.paths.reportPath,
    });
    for (const line of lines) context.io.out(`${line}\n`);
    if (loaded.viewOnly) {
      context.io.out(`(saved by engine ${loaded.state.engineVersion}: view-only, it cannot be resumed)\n`);
    }
  } finally {
    await runtime.close();
  }
}

/**
 * `bullswarm workflow watch <runId>`: live while a process drives the run (the view on a terminal,
 * events as JSON lines otherwise), a replay when it has ended. Exit 0 when every step is ok. It
 * re-reads the run every 200 ms (`BULLSWARM_WORKFLOW_WATCH_POLL_SEC`, 0.001 to 60 s, changes that;
 * anything else exits 2).
 */
export async function workflowWatchCommand(context: CommandContext, runId: string): Promise<void> {
  const { watchRun, runOutcome, resolveWatchPollMs } = await import('@bullswarm/workflow');
  const pollMs = resolveWatchPollMs(context.io.env);
  const runtime = await openCliRuntime(context);
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.on('SIGINT', stop);
  try {
    await refuseBlindCaller(context, runtime.home.workflowsDir, runId, 'watch');
    const loaded = await withCliErrors(() =>
      watchRun({
        workflowsDir: runtime.home.workflowsDir,
        runId,
        out: stdoutViewStream(context),
        tty: context.io.stdoutIsTTY,
        signal: abort.signal,
        ...(pollMs === undefined ? {} : { pollMs }),
      }),
    );
    if (runOutcome(loaded.state, loaded.live) !== 'ok') throw new CliExit(EXIT.failed);
  } finally {
    process.removeListener('SIGINT', stop);
    await runtime.close();
  }
}

/**
 * Refuses `workflow show|watch` of a run from inside one of its blind steps (the worker's
 * `BULLSWARM_WORKFLOW_RUN`/`BULLSWARM_WORKFLOW_STEP`): the view holds the answers of the steps it
 * is blind to. Exit 2. A guard on bullswarm's own commands, not a sandbox (see the workflow README).
 */
async function refuseBlindCaller(
  context: CommandContext,
  workflowsDir: string,
  runId: string,
  command: 'show' | 'watch',
): Promise<void> {
  const { blindCaller, runPaths, RUN_ID_PATTERN } = await import('@bullswarm/workflow');
  if (!RUN_ID_PATTERN.test(runId)) return;
  const caller = blindCaller(runPaths(workflowsDir, runId), runId, context.io.env);
  if (!caller) return;
  context.io.err(
    `workflow ${command}: refused: this process runs the blind step ${caller.step} of run ${runId} ` +
      `(blind to ${caller.blindTo.join(', ')}); a blind step gets only the files in the tree\n`,
  );
  throw new CliExit(EXIT.usage);
}
