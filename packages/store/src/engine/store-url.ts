/** The URL schemes that select the Postgres engine. */
export const POSTGRES_URL_PATTERN = /^postgres(?:ql)?:\/\//;

/** Query parameters of a connection URL that hold a secret. */
const SECRET_PARAMS = ['password', 'sslpassword', 'sslkey'];

/**
 * A store URL as it may be printed: the password (and any `password=`/`sslpassword=`/`sslkey=`
 * parameter) removed, never replaced by a placeholder that could be mistaken for it. A string
 * that does not parse as a URL is reduced to its scheme.
 *
 * @example
 * ```ts
 * redactStoreUrl('postgres://bullswarm:s3cret@db.example:5432/bullswarm'); // 'postgres://bullswarm@db.example:5432/bullswarm'
 * ```
 */
export function redactStoreUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0];
    return scheme === undefined ? '(a store URL that does not parse)' : `${scheme}//… (does not parse)`;
  }
  parsed.password = '';
  const secrets = [...parsed.searchParams.keys()].filter((name) =>
    SECRET_PARAMS.includes(name.toLowerCase()),
  );
  // Only then is the query rewritten (re-encoded): a socket folder in ?host= stays readable.
  for (const name of secrets) parsed.searchParams.delete(name);
  return parsed.toString();
}

/** The password of a URL, to scrub from driver messages (empty when none). */
export function urlPassword(url: string): string {
  try {
    const parsed = new URL(url);
    const fromParams = parsed.searchParams.get('password') ?? '';
    return decodeURIComponent(parsed.password) || fromParams;
  } catch {
    return '';
  }
}

/** `text` with every occurrence of `secret` removed (a driver message that quoted it). */
export function scrubSecret(text: string, secret: string): string {
  return secret.length < 3 ? text : text.split(secret).join('[redacted]');
}
