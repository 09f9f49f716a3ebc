/**
 * How an error message shows a value it was given: a string quoted (`"weekly"`), a number, boolean,
 * null or undefined as written (`NaN`, `Infinity`, `undefined`: what `JSON.stringify` would turn
 * into `null` or nothing), anything else as JSON, or its type when it has no JSON form.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}
