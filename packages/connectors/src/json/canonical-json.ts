/**
 * JSON with object keys sorted (by UTF-16 code unit) at every level, so equal values always give
 * equal text: the form bullswarm hashes (workflow unit fingerprints, swarm plan contracts). Object
 * members whose value is `undefined` are left out and array entries that are `undefined` become
 * `null`, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((entry) => canonicalJson(entry)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}
