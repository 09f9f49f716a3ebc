const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Appends a key or index to a JSON path: `$.steps` + 2 → `$.steps[2]`; `$` + `a-b` → `$["a-b"]`. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return identifier.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** A JSON path from a list of keys (zod issue paths), rooted at `$`. */
export function jsonPath(keys: readonly PropertyKey[]): string {
  let path = '$';
  for (const key of keys) path = childPath(path, typeof key === 'number' ? key : String(key));
  return path;
}

/** A plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own-property read that never reaches the prototype (`__proto__`, `constructor`…). */
export function ownValue(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}
