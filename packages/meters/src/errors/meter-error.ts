/**
 * Errors of `@bullswarm/meters`.
 *
 * They follow the bullswarm error convention: a global-symbol marker makes `isInstance` work
 * across duplicate copies of the package, constructors take one options object, and the meaning
 * lives in fields (`reason`, `status`, `location`), not in message text.
 *
 * `MeterError` extends `Error` directly for now: `@bullswarm/pacing` did not export
 * `BullswarmError` when this package was written. It keeps the same marker shape so the switch
 * to `extends BullswarmError` is a one-line change.
 */

const meterErrorKey = 'bullswarm.error.MeterError';
const meterErrorMarker = Symbol.for(meterErrorKey);

/** True when `value` is an object carrying the global-symbol marker named `key`. */
export function hasErrorMarker(value: unknown, key: string): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[Symbol.for(key)] === true
  );
}

/** Base class of every error this package throws. */
export class MeterError extends Error {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for in isInstance
  private readonly [meterErrorMarker] = true;

  constructor(options: { readonly name?: string; readonly message: string; readonly cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = options.name ?? 'MeterError';
  }

  /** True for any error of this package, across duplicate copies. */
  static isInstance(value: unknown): value is MeterError {
    return hasErrorMarker(value, meterErrorKey);
  }
}
