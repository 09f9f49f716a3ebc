import { formatTime } from '@bullswarm/pacing';
import { type CommandContext, openCliRuntime } from '../../cli/command-context';
import { formatCountdownMs } from '../../output/format-seconds';
import { driveRun, withCliErrors } from './workflow-cli-support';

/** Options of `bullswarm workflow resume`. */
export interface WorkflowResumeOptions {
  readonly whenReady?: boolean;
  readonly json?: boolean;
}

/**
 * `bullswarm workflow resume <runId> [--when-ready]`: runs again what has no ok verdict. With
 * `--when-ready` it first waits until the earliest known back-at of the steps that came back (time
 * read from bullswarm's clock, which BULLSWARM_NOW fixes; the wait itself is real time), showing a
 * countdown (`resuming in 45s`, `resuming in 10m`) — redrawn on a terminal, a line every 30 s
 * otherwise. Ctrl-C during the wait ends the command without resuming (exit 1).
 */
export async function workflowResumeCommand(
  context: CommandContext,
  runId: string,
  options: WorkflowResumeOptions,
): Promise<void> {
  const workflow = await import('@bullswarm/workflow');
  const runtime = await openCliRuntime(context, { createStore: true });
  try {
    if (options.whenReady) {
      const loaded = await withCliErrors(async () => {
        const run = workflow.loadRun(runtime.home.workflowsDir, runId);
        workflow.assertNotViewOnly(run, 'resumed');
        return run;
      });
      const backAt = workflow.earliestBackAt(loaded.state);
      if (backAt === undefined) {
        context.io.err('no step that came back has a known back-at; resuming now\n');
      } else {
        const waitMs = backAt - runtime.clock();
        if (waitMs > 0) {
          const ok = await countdown(context, backAt, waitMs, workflow.abortableSleep);
          if (!ok) {
            const { CliExit } = await import('../../cli/cli-errors');
            context.io.err('\nstopped before resuming\n');
            throw new CliExit(1);
          }
        }
      }
    }
    await driveRun(context, runtime, options.json === true, (runOptions) =>
      workflow.resumeWorkflow({ ...runOptions, runtime, runId }),
    );
  } finally {
    runtime.close();
  }
}

/** Waits `waitMs` of real time with a visible countdown; false when interrupted. */
async function countdown(
  context: CommandContext,
  backAt: number,
  waitMs: number,
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
): Promise<boolean> {
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const end = Date.now() + waitMs;
    const tty = context.io.stderrIsTTY;
    let lastLine = 0;
    for (;;) {
      const left = end - Date.now();
      if (left <= 0 || abort.signal.aborted) break;
      const text = `waiting until ${formatTime(backAt)} (the earliest back-at) · resuming in ${formatCountdownMs(left)}`;
      if (tty) context.io.err(`\r\x1b[2K${text}`);
      else if (Date.now() - lastLine >= 30_000 || lastLine === 0) {
        context.io.err(`${text}\n`);
        lastLine = Date.now();
      }
      await sleep(Math.min(1000, left), abort.signal);
    }
    if (tty) context.io.err('\r\x1b[2K');
    if (abort.signal.aborted) return false;
    context.io.err(`back at ${formatTime(backAt)}: resuming\n`);
    return true;
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
}

/** `bullswarm workflow restart <runId> <step> [--worker-pool <pool>]`. */
export async function workflowRestartCommand(
  context: CommandContext,
  runId: string,
  stepId: string,
  options: { readonly workerPool?: string; readonly json?: boolean },
): Promise<void> {
  const workflow = await import('@bullswarm/workflow');
  const runtime = await openCliRuntime(context, { createStore: true });
  try {
    await driveRun(context, runtime, options.json === true, (runOptions) =>
      workflow.restartWorkflowStep({
        ...runOptions,
        runtime,
        runId,
        stepId,
        ...(options.workerPool === undefined ? {} : { workerPool: options.workerPool }),
      }),
    );
  } finally {
    runtime.close();
  }
}
