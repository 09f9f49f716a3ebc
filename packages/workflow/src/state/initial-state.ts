import type { WorkflowProgram } from '../program/workflow-program';
import { ENGINE_VERSION } from '../version';
import { type RunState, STATE_VERSION } from './run-state';

/** What a run's first state is made of. */
export interface InitialStateOptions {
  readonly runId: string;
  readonly program: WorkflowProgram;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly programFile?: string;
  readonly cwd: string;
  readonly createdAt: number;
  readonly concurrency: number;
  readonly workerPool?: string;
}

/**
 * The state of a run before anything ran: every step pending. `startWorkflow` writes it as the
 * first state.json; `loadRun` rebuilds a lost state.json from it and the run's events.
 */
export function initialRunState(options: InitialStateOptions): RunState {
  const { program } = options;
  return {
    stateVersion: STATE_VERSION,
    engineVersion: ENGINE_VERSION,
    runId: options.runId,
    ...(program.name === undefined ? {} : { name: program.name }),
    ...(options.programFile === undefined ? {} : { programFile: options.programFile }),
    cwd: options.cwd,
    status: 'running',
    createdAt: options.createdAt,
    updatedAt: options.createdAt,
    options: {
      concurrency: options.concurrency,
      ...(options.workerPool === undefined ? {} : { workerPool: options.workerPool }),
    },
    inputs: { ...options.inputs },
    levels: program.levels.map((level) => [...level]),
    lastEventSeq: 0,
    steps: program.steps.map((step) => ({
      id: step.id,
      level: step.level,
      fanOut: step.forEach !== undefined,
      status: 'pending',
    })),
  };
}
