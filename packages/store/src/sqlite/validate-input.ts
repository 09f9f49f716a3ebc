import { WINDOW_KINDS } from '@bullswarm/pacing';
import { StoreInputError } from '../errors/store-input-error';

/** Field checks for values handed to the store; each throws {@link StoreInputError} naming the field. */
export function requireString(operation: string, field: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new StoreInputError({ operation, field, expected: 'a non-empty string', value });
  }
  return value;
}

export function optionalString(operation: string, field: string, value: unknown): string | null {
  return value === undefined ? null : requireString(operation, field, value);
}

export function requireTime(operation: string, field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new StoreInputError({ operation, field, expected: 'a finite number (epoch ms)', value });
  }
  return value;
}

export function optionalTime(operation: string, field: string, value: unknown): number | null {
  return value === undefined ? null : requireTime(operation, field, value);
}

export function requireNumber(operation: string, field: string, value: unknown, min = 0): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new StoreInputError({ operation, field, expected: `a finite number >= ${min}`, value });
  }
  return value;
}

export function optionalNumber(operation: string, field: string, value: unknown, min = 0): number | null {
  return value === undefined ? null : requireNumber(operation, field, value, min);
}

export function requirePid(operation: string, field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new StoreInputError({ operation, field, expected: 'a positive integer process id', value });
  }
  return value;
}

export function requireOneOf<T extends string>(
  operation: string,
  field: string,
  value: unknown,
  allowed: readonly T[],
): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new StoreInputError({ operation, field, expected: `one of ${allowed.join(', ')}`, value });
  }
  return value as T;
}

export function requireBoolean(operation: string, field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') {
    throw new StoreInputError({ operation, field, expected: 'true or false', value });
  }
  return value;
}

export const RUN_OUTCOMES = [
  'ok',
  'failed',
  'quota',
  'throttle',
  'auth',
  'empty',
  'stalled',
  'canceled',
] as const;

/** Check meter windows and return them as stored JSON. */
export function windowsToJson(operation: string, windows: unknown): string {
  if (!Array.isArray(windows)) {
    throw new StoreInputError({
      operation,
      field: 'windows',
      expected: 'an array of meter windows',
      value: windows,
    });
  }
  const clean = windows.map((window: unknown, index) => {
    const w = (window ?? {}) as Record<string, unknown>;
    const field = (name: string) => `windows[${index}].${name}`;
    const out: Record<string, unknown> = {
      kind: requireOneOf(operation, field('kind'), w.kind, WINDOW_KINDS),
      usedPct: requireNumber(operation, field('usedPct'), w.usedPct),
    };
    if (w.resetsAt !== undefined) out.resetsAt = requireTime(operation, field('resetsAt'), w.resetsAt);
    out.windowMinutes = requireNumber(operation, field('windowMinutes'), w.windowMinutes);
    return out;
  });
  return JSON.stringify(clean);
}
