/**
 * The last JSON object in an agent's answer, fenced (```json … ```) or bare, or undefined when the
 * answer holds none. Objects nested in a later one do not count separately: the outermost object
 * that ends last wins. Text around it (prose, the fence) is ignored.
 *
 * @example lastJsonObject('Here:\n```json\n{"ok": true}\n```') // { ok: true }
 */
export function lastJsonObject(answer: string): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined;
  let index = answer.indexOf('{');
  while (index !== -1) {
    const end = balancedEnd(answer, index);
    if (end !== -1) {
      const parsed = tryParse(answer.slice(index, end + 1));
      if (parsed !== undefined) {
        found = parsed;
        index = answer.indexOf('{', end + 1);
        continue;
      }
    }
    index = answer.indexOf('{', index + 1);
  }
  return found;
}

/** Index of the `}` closing the object opened at `start` (string-aware), or -1. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let at = start; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === 0x5c) at++;
      else if (char === 0x22) inString = false;
      continue;
    }
    if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) depth++;
    else if (char === 0x7d || char === 0x5d) {
      depth--;
      if (depth === 0) return char === 0x7d ? at : -1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

function tryParse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
