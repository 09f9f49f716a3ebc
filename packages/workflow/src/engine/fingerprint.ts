import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((entry) => canonicalJson(entry)).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
    .join(',')}}`;
}

/**
 * The content fingerprint of a unit: sha-256 over its rendered prompt, its item, the outputs of
 * the steps it depends on, and the step settings that change what it does. Resume matches fan-out
 * items by it, so a changed discovery order (a glob, an upstream list) redoes nothing verified.
 */
export function unitFingerprint(parts: {
  readonly prompt: string;
  readonly item?: unknown;
  readonly dependencyOutputs: Readonly<Record<string, unknown>>;
  readonly settings: unknown;
}): string {
  return createHash('sha256')
    .update(canonicalJson({ v: 1, ...parts }))
    .digest('hex');
}
