import { BullswarmError, hasErrorMarker } from './bullswarm-error';

const errorKey = 'bullswarm.error.InvalidConnectorError';
const marker = Symbol.for(errorKey);

/** A value offered as a connector (a module's export) does not have the connector-v1 shape. */
export class InvalidConnectorError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  /** Where the value came from (package name or file). */
  readonly source: string;
  /** The member that is missing or wrong, e.g. `buildInvocation`. */
  readonly field: string;
  /** What is wrong with it, e.g. `expected a function` (the message without source and field). */
  readonly problem: string;

  constructor(options: { source: string; field: string; message: string; cause?: unknown }) {
    super({
      name: 'InvalidConnectorError',
      message: `${options.source}: ${options.field}: ${options.message}`,
      cause: options.cause,
    });
    this.source = options.source;
    this.field = options.field;
    this.problem = options.message;
  }

  static override isInstance(value: unknown): value is InvalidConnectorError {
    return hasErrorMarker(value, errorKey);
  }
}
