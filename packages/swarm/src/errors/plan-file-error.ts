import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.PlanFileError';
const marker = Symbol.for(errorKey);

/**
 * A plan (`plans/<id>/plan.json`) or a handoff packet cannot be used: missing, not JSON, or a
 * field that does not fit its schema. `filePath` and `fieldPath` say where, `problem` what.
 */
export class PlanFileError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly filePath: string;
  /** The offending field, e.g. `tasks[2].dependsOn[0]`; undefined for whole-file problems. */
  readonly fieldPath: string | undefined;
  readonly problem: string;

  constructor(options: { filePath: string; fieldPath?: string; problem: string; cause?: unknown }) {
    super({
      name: 'PlanFileError',
      fault: 'input',
      message: `${options.filePath}${options.fieldPath ? `: ${options.fieldPath}` : ''}: ${options.problem}`,
      cause: options.cause,
    });
    this.filePath = options.filePath;
    this.fieldPath = options.fieldPath;
    this.problem = options.problem;
  }

  static override isInstance(value: unknown): value is PlanFileError {
    return hasErrorMarker(value, errorKey);
  }
}
