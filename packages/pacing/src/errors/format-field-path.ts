/**
 * A field path for a person reading an error: `pools[2].models.high`, with keys that are not plain
 * names quoted (`env["MY VAR"]`, `labels["claude-code:acme"]`); a hyphen counts as part of a plain
 * name (`modelProfiles.x-high`), since these paths are read by people editing JSON, not evaluated.
 * The root is `''` — callers that name the root say so in their own words. Takes the `path` of a zod
 * issue (or any list of keys and indexes).
 */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const name = String(segment);
      out += /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(name)
        ? out === ''
          ? name
          : `.${name}`
        : `[${JSON.stringify(name)}]`;
    }
  }
  return out;
}
