import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.DrillFailedError';
const marker = Symbol.for(errorKey);

/** The drill did not prove the loop: `step` says where, `problem` what was seen instead. */
export class DrillFailedError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly step: string;
  readonly problem: string;
  /** The scratch directory, kept for inspection. */
  readonly dir: string;

  constructor(options: { step: string; problem: string; dir: string; cause?: unknown }) {
    super({
      name: 'DrillFailedError',
      message: `drill failed at "${options.step}": ${options.problem} (scratch kept in ${options.dir})`,
      cause: options.cause,
    });
    this.step = options.step;
    this.problem = options.problem;
    this.dir = options.dir;
  }

  static override isInstance(value: unknown): value is DrillFailedError {
    return hasErrorMarker(value, errorKey);
  }
}
