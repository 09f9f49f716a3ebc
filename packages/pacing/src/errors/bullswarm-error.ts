const errorKey = 'bullswarm.error.BullswarmError';
const bullswarmMarker = Symbol.for(errorKey);

/**
 * True when `value` carries the global-symbol marker `Symbol.for(key)` set to `true`.
 *
 * Markers make `isInstance` checks work across duplicate copies of a package (two versions in
 * one `node_modules`, or a bundled copy), where `instanceof` would fail.
 *
 * @param value anything, typically a caught error
 * @param key the marker key, `bullswarm.error.<Name>`
 */
export function hasErrorMarker(value: unknown, key: string): boolean {
  if (value == null || typeof value !== 'object') return false;
  const symbol = Symbol.for(key);
  return symbol in value && (value as Record<symbol, unknown>)[symbol] === true;
}

/** Options every bullswarm error constructor accepts. */
export interface BullswarmErrorOptions {
  /** The error's name, e.g. `DispatchError`; defaults to `BullswarmError`. */
  readonly name?: string;
  /** A message that names the file, field or flag and what would be valid. */
  readonly message: string;
  /** The underlying error, when this one wraps another. */
  readonly cause?: unknown;
  /**
   * `input` when the caller's input was wrong (a value, a file, a name), so a front end reports a
   * usage error (the CLI exits 2); `failure` (the default) for everything else (exit 1).
   */
  readonly fault?: 'input' | 'failure';
}

/**
 * The base of every bullswarm error. Meaning goes in fields of subclasses, not in message text.
 *
 * Subclasses follow the marker pattern:
 * ```ts
 * const errorKey = 'bullswarm.error.DispatchError';
 * const dispatchMarker = Symbol.for(errorKey);
 * export class DispatchError extends BullswarmError {
 *   // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
 *   private readonly [dispatchMarker] = true;
 *   static override isInstance(value: unknown): value is DispatchError {
 *     return hasErrorMarker(value, errorKey);
 *   }
 * }
 * ```
 */
export class BullswarmError extends Error {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [bullswarmMarker] = true;

  /** The underlying error, when this one wraps another. */
  override readonly cause?: unknown;
  /** `input`: the caller's input was wrong (the CLI exits 2); `failure`: anything else (exit 1). */
  readonly fault: 'input' | 'failure';

  constructor({ name = 'BullswarmError', message, cause, fault = 'failure' }: BullswarmErrorOptions) {
    super(message);
    this.name = name;
    this.fault = fault;
    if (cause !== undefined) this.cause = cause;
  }

  /** True for any bullswarm error, from this copy of the package or another. */
  static isInstance(value: unknown): value is BullswarmError {
    return hasErrorMarker(value, errorKey);
  }
}
