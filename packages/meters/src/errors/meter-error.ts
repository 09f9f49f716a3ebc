import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const meterErrorKey = 'bullswarm.error.MeterError';
const meterErrorMarker = Symbol.for(meterErrorKey);

/**
 * Base class of every error `@bullswarm/meters` throws. It follows the bullswarm error
 * convention: a global-symbol marker makes `isInstance` work across duplicate copies of the
 * package, constructors take one options object, and the meaning lives in fields of the
 * subclasses (`reason`, `status`, `location`), not in message text.
 */
export class MeterError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for in isInstance
  private readonly [meterErrorMarker] = true;

  constructor(options: { readonly name?: string; readonly message: string; readonly cause?: unknown }) {
    super({ name: options.name ?? 'MeterError', message: options.message, cause: options.cause });
  }

  /** True for any error of this package, across duplicate copies. */
  static override isInstance(value: unknown): value is MeterError {
    return hasErrorMarker(value, meterErrorKey);
  }
}
