import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const usageKey = 'bullswarm.error.CliUsageError';
const usageMarker = Symbol.for(usageKey);

/**
 * A command line the CLI cannot act on: a bad flag value, a missing argument, a pool or tier
 * that does not fit. Exit code 2. `flag` names the flag or argument, `expected` what is valid.
 */
export class CliUsageError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [usageMarker] = true;
  /** The flag or argument at fault, e.g. `--lane` or `<pool>`. */
  readonly flag: string | undefined;
  /** What would be valid, when it can be said in a few words. */
  readonly expected: string | undefined;

  constructor(options: { message: string; flag?: string; expected?: string; cause?: unknown }) {
    super({ name: 'CliUsageError', fault: 'input', message: options.message, cause: options.cause });
    this.flag = options.flag;
    this.expected = options.expected;
  }

  static override isInstance(value: unknown): value is CliUsageError {
    return hasErrorMarker(value, usageKey);
  }
}

const exitKey = 'bullswarm.error.CliExit';
const exitMarker = Symbol.for(exitKey);

/**
 * Ends the command with an exit code after it has already said why (a failed run printed its
 * `FAILED …` line; setup printed its plan and asked for `--yes`). Nothing more is printed.
 */
export class CliExit extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [exitMarker] = true;
  readonly exitCode: number;

  constructor(exitCode: number, message = `exit ${exitCode}`) {
    super({ name: 'CliExit', message });
    this.exitCode = exitCode;
  }

  static override isInstance(value: unknown): value is CliExit {
    return hasErrorMarker(value, exitKey);
  }
}
