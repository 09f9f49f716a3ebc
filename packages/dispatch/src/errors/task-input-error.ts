import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.TaskInputError';
const taskInputMarker = Symbol.for(errorKey);

/**
 * A task described wrongly by whoever hands it over (a lane that is not one, an unknown effort
 * tier, a working directory that does not exist, a retry count out of range). `field` is the name
 * the caller used for the value — `--effort` on the command line, `effort` in an MCP tool call — and
 * the message opens with it, so each front end reports the same rule in its own words. The CLI
 * exits 2 on it; `bullswarm mcp` returns it as a tool error.
 */
export class TaskInputError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [taskInputMarker] = true;
  /** The flag or field at fault, as the caller named it (`--lane`, `lane`). */
  readonly field: string;
  /** What would be valid, when it can be said in a few words. */
  readonly expected: string | undefined;

  constructor(options: { message: string; field: string; expected?: string; cause?: unknown }) {
    super({ name: 'TaskInputError', fault: 'input', message: options.message, cause: options.cause });
    this.field = options.field;
    this.expected = options.expected;
  }

  static override isInstance(value: unknown): value is TaskInputError {
    return hasErrorMarker(value, errorKey);
  }
}
