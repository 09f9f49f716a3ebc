import { countdownToBackAt } from '../../cli/back-at-countdown';
import { type CommandContext, openCliRuntime } from '../../cli/command-context';
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
 * otherwise (`countdownToBackAt`, shared with `run --when-ready`). Ctrl-C during the wait ends the
 * command without resuming (exit 1).
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
          const outcome = await countdownToBackAt(context, { backAt, waitMs });
          if (outcome === 'aborted') {
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
    await runtime.close();
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
    await runtime.close();
  }
}
