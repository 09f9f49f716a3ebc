import type { BullswarmRuntime } from '@bullswarm/dispatch';
import { WorkflowError } from '../errors/workflow-error';

/**
 * The pool id of a `workerPool` option (an id or a label) of `startWorkflow`, `planWorkflow` or
 * `restartWorkflowStep`.
 *
 * @throws WorkflowError `bad-option` naming `workerPool` (its `option` says what was given and why)
 */
export function resolveWorkerPool(runtime: BullswarmRuntime, ref: string): string {
  try {
    return runtime.home.resolvePoolRef(ref);
  } catch (error) {
    const problem = (error as Error).message;
    throw new WorkflowError({
      kind: 'bad-option',
      message: `workerPool ${ref}: ${problem}`,
      option: { name: 'workerPool', value: ref, problem },
      cause: error,
    });
  }
}
