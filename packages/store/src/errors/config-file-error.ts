import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.ConfigFileError';
const marker = Symbol.for(errorKey);

/**
 * What is wrong with a config file:
 * - `invalid-json`: the file is not parseable JSON.
 * - `invalid-schema`: the JSON does not match the file's schema (see `fieldPath`).
 * - `unreadable`: the file exists but could not be read (permissions, a directory, …).
 * - `rejected-update`: an update would have produced an invalid file; nothing was written.
 */
export type ConfigFileProblemKind = 'invalid-json' | 'invalid-schema' | 'unreadable' | 'rejected-update';

export interface ConfigFileErrorOptions {
  readonly filePath: string;
  readonly kind: ConfigFileProblemKind;
  /** The offending field, e.g. `pools[2].models.high`; undefined for whole-file problems. */
  readonly fieldPath?: string;
  /** What is wrong, e.g. `expected a string or null, got 42`. */
  readonly problem: string;
  /** How to recover, e.g. `fix the field by hand or restore state.json.bak`. */
  readonly recovery: string;
  /** Every problem found, first one first (the fields above describe the first). */
  readonly problems?: readonly { readonly fieldPath: string | undefined; readonly problem: string }[];
  readonly cause?: unknown;
}

/**
 * A config file (state.json, pool-labels.json) is invalid, or an update would make it invalid.
 * bullswarm never overwrites a file it could not validate: every write re-reads the current file
 * first and refuses with this error.
 */
export class ConfigFileError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly filePath: string;
  readonly kind: ConfigFileProblemKind;
  readonly fieldPath: string | undefined;
  readonly problem: string;
  readonly recovery: string;
  readonly problems: readonly { readonly fieldPath: string | undefined; readonly problem: string }[];

  constructor(options: ConfigFileErrorOptions) {
    const where =
      options.fieldPath === undefined ? options.filePath : `${options.filePath}: ${options.fieldPath}`;
    super({
      name: 'ConfigFileError',
      fault: 'input',
      message: `${where}: ${options.problem}. ${options.recovery}`,
      cause: options.cause,
    });
    this.filePath = options.filePath;
    this.kind = options.kind;
    this.fieldPath = options.fieldPath;
    this.problem = options.problem;
    this.recovery = options.recovery;
    this.problems = options.problems ?? [{ fieldPath: options.fieldPath, problem: options.problem }];
  }

  static override isInstance(value: unknown): value is ConfigFileError {
    return hasErrorMarker(value, errorKey);
  }
}
