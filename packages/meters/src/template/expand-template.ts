import { MeterTemplateError } from '../errors/meter-template-error';

/** The values a meter source string can refer to. */
export interface TemplateValues {
  /** The pool's account name (`claude-code:acme` → `acme`), or `default` for a bare connector pool. */
  readonly account: string;
  /** The bullswarm home ($BULLSWARM_HOME, default `~/.bullswarm`). */
  readonly home: string;
  /** The user's home directory. */
  readonly userHome: string;
  /** The pool's account environment, read by `{{env.NAME}}`. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

const templatePattern = /\{\{\s*([^}]*?)\s*\}\}/g;
const envNamePattern = /^env\.([A-Za-z_][A-Za-z0-9_]*)$/;

/**
 * Expands the account templates of a meter source string: `{{account}}`, `{{home}}`,
 * `{{userHome}}` and `{{env.NAME}}`. Whitespace inside the braces is allowed.
 *
 * An environment variable that is not set expands to the empty string (so a source such as
 * `{{env.CODEX_HOME}}` can fall back to its default); any other name throws a
 * {@link MeterTemplateError} naming the template and the valid variables.
 *
 * @example
 * expandTemplate('{{userHome}}/.claude-{{account}}', { account: 'acme', home, userHome: '/home/me', env: {} });
 * // → '/home/me/.claude-acme'
 */
export function expandTemplate(template: string, values: TemplateValues): string {
  return template.replace(templatePattern, (_match, rawName: string) => {
    const name = rawName.trim();
    if (name === 'account') return values.account;
    if (name === 'home') return values.home;
    if (name === 'userHome') return values.userHome;
    const envMatch = envNamePattern.exec(name);
    if (envMatch) return values.env[envMatch[1]!] ?? '';
    throw new MeterTemplateError({ template, variable: name });
  });
}

/** The account part of a pool id: `claude-code:acme` → `acme`, `codex` → `default`. */
export function accountOfPoolId(poolId: string): string {
  const colon = poolId.indexOf(':');
  return colon === -1 || colon === poolId.length - 1 ? 'default' : poolId.slice(colon + 1);
}
