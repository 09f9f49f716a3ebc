import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.WorkflowError';
const marker = Symbol.for(errorKey);

/**
 * What went wrong around a workflow run (never a step's own failure, which is a verdict):
 * - `program-invalid`: the program file failed validation (see `problems`).
 * - `program-unreadable`: the program file (or a promptFile) could not be read or parsed.
 * - `missing-input` / `unknown-input`: the `inputs` given do not fit the program's `inputs`.
 * - `run-not-found`: no run with that id in the home.
 * - `run-view-only`: the run was saved by a different engine version; show/watch only.
 * - `run-busy`: another live process is driving the run.
 * - `run-state-invalid`: state.json of the run does not match its schema.
 * - `unknown-step`: `restart` named a step the run does not have.
 * - `bad-option`: an engine option is out of range (concurrency, a pool…).
 * - `write-failed`: a file of the run could not be written (a full disk, a read-only home): the run
 *   stopped, what was written before is kept, `resume` continues it (`fault` follows the cause:
 *   `input` for a home that cannot be written at all, else `failure`).
 */
export type WorkflowErrorKind =
  | 'program-invalid'
  | 'program-unreadable'
  | 'missing-input'
  | 'unknown-input'
  | 'run-not-found'
  | 'run-view-only'
  | 'run-busy'
  | 'run-state-invalid'
  | 'unknown-step'
  | 'bad-option'
  | 'write-failed';

/** One problem of a program, with the JSON path of the offending field. */
export interface ProgramProblem {
  /** JSON path from the program's root, e.g. `$.steps[2].dependsOn[0]`. */
  readonly path: string;
  readonly kind: ProgramProblemKind;
  /** What is wrong and what would be valid. */
  readonly message: string;
}

/** The kinds of program problem `validateProgram` reports. */
export type ProgramProblemKind =
  | 'missing-file'
  | 'unreadable-file'
  | 'invalid-json'
  | 'invalid-field'
  | 'duplicate-id'
  | 'unknown-step'
  | 'cycle'
  | 'unknown-lane'
  | 'unknown-tier'
  | 'unknown-pool'
  | 'unknown-provider'
  | 'bad-template'
  | 'unknown-input'
  | 'item-outside-fan-out'
  | 'output-not-upstream'
  | 'output-blind'
  | 'output-without-schema'
  | 'unsafe-shell-template'
  | 'not-upstream'
  | 'bad-output-schema'
  | 'missing-prompt-file'
  | 'bad-glob';

/**
 * The option of `startWorkflow`, `restartWorkflowStep` or `planWorkflow` an error is about, as the
 * API names it, with the value given and what is wrong with it. A front end names its own option
 * for it (the CLI: `workerPool` is `--worker-pool`, `inputs` is `--input`).
 */
export interface WorkflowOptionProblem {
  readonly name: 'workerPool' | 'concurrency' | 'cwd' | 'inputs';
  /** The value given (for `inputs`, the input's name); absent when it is a value that is missing. */
  readonly value?: string;
  /** What is wrong and what would be valid, without the option's name. */
  readonly problem: string;
}

/** Options of {@link WorkflowError}. */
export interface WorkflowErrorOptions {
  readonly kind: WorkflowErrorKind;
  readonly message: string;
  /** The file concerned (program, state.json), when there is one. */
  readonly filePath?: string;
  readonly runId?: string;
  readonly stepId?: string;
  /** Every problem of an invalid program. */
  readonly problems?: readonly ProgramProblem[];
  /** `bad-option`, `unknown-input`: the option at fault. */
  readonly option?: WorkflowOptionProblem;
  /** `missing-input`: the required inputs that have neither a value nor a default. */
  readonly missingInputs?: readonly string[];
  readonly cause?: unknown;
  /** Decides the CLI's exit code (default `failure`); see `BullswarmError`. */
  readonly fault?: 'input' | 'failure';
}

/** An error around a workflow run; meaning is in `kind` and the fields, not the message. */
export class WorkflowError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly kind: WorkflowErrorKind;
  readonly filePath: string | undefined;
  readonly runId: string | undefined;
  readonly stepId: string | undefined;
  readonly problems: readonly ProgramProblem[];
  readonly option: WorkflowOptionProblem | undefined;
  readonly missingInputs: readonly string[];

  constructor(options: WorkflowErrorOptions) {
    super({
      name: 'WorkflowError',
      message: options.message,
      cause: options.cause,
      ...(options.fault === undefined ? {} : { fault: options.fault }),
    });
    this.kind = options.kind;
    this.filePath = options.filePath;
    this.runId = options.runId;
    this.stepId = options.stepId;
    this.problems = options.problems ?? [];
    this.option = options.option;
    this.missingInputs = options.missingInputs ?? [];
  }

  /** True for a usage/validation error (CLI exit 2) rather than a run problem. */
  get isUsageError(): boolean {
    return this.kind !== 'run-busy';
  }

  static override isInstance(value: unknown): value is WorkflowError {
    return hasErrorMarker(value, errorKey);
  }
}
