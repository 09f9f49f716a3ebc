/**
 * The manifest template language: `{{name}}` placeholders, nothing else. Known names:
 * `prompt`, `model`, `cwd`, `dir`, `account`, `home`, `userHome` and `env.NAME`. No expressions,
 * no defaults, no escaping: a literal `{{` cannot appear in a manifest string.
 */
export const TEMPLATE_VARIABLES = ['prompt', 'model', 'cwd', 'dir', 'account', 'home', 'userHome'] as const;

export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

const PLACEHOLDER = /\{\{\s*([^}]*?)\s*\}\}/g;
const ENV_NAME = /^env\.([A-Za-z_][A-Za-z0-9_]*)$/;

/** The placeholder names in `template`, e.g. `['userHome', 'account']`. */
export function templateNames(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
}

/**
 * Why `template` is not valid where only `allowed` names may appear (env.X is always allowed),
 * or undefined when it is valid.
 */
export function checkTemplate(template: string, allowed: readonly string[]): string | undefined {
  const withoutPlaceholders = template.replace(PLACEHOLDER, '');
  if (withoutPlaceholders.includes('{{') || withoutPlaceholders.includes('}}')) {
    return `unbalanced "{{" / "}}" in ${JSON.stringify(template)}`;
  }
  for (const name of templateNames(template)) {
    if (ENV_NAME.test(name)) continue;
    if (!allowed.includes(name)) {
      const valid = [...allowed.map((a) => `{{${a}}}`), '{{env.NAME}}'].join(', ');
      return `unknown template variable {{${name}}} here; valid: ${valid}`;
    }
  }
  return undefined;
}

/** The values a template is rendered with; `env` is consulted for `{{env.NAME}}`. */
export type TemplateValues = Partial<Record<TemplateVariable, string>> & {
  readonly env?: Readonly<Record<string, string | undefined>>;
};

/**
 * Renders `template`. Returns `{value}` or `{missing}` naming the first variable without a value
 * (an env variable that is unset or empty counts as missing).
 */
export function renderTemplate(
  template: string,
  values: TemplateValues,
): { value: string; missing?: undefined } | { value?: undefined; missing: string } {
  let missing: string | undefined;
  const value = template.replace(PLACEHOLDER, (_whole, rawName: string) => {
    const name = rawName.trim();
    const env = ENV_NAME.exec(name);
    const resolved = env ? values.env?.[env[1] ?? ''] : values[name as TemplateVariable];
    if (resolved === undefined || (env && resolved === '')) {
      missing ??= name;
      return '';
    }
    return resolved;
  });
  return missing === undefined ? { value } : { missing };
}
