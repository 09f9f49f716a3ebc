import type { MeterReadError } from '../errors/meter-read-error';

/** Longest detail kept; a longer message (a chatty command's stderr) is cut with `…`. */
export const MAX_METER_ERROR_DETAIL_CHARS = 1000;

/** Environment variable names whose values are treated as credentials. */
const SECRET_NAME =
  /TOKEN|SECRET|PASSW(OR)?D|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH|COOKIE|SESSION/i;
/** Shorter values are not redacted (they would blank out ordinary words such as `1` or `true`). */
const MIN_SECRET_LENGTH = 8;

/**
 * The full message of a failed meter read as `PoolMeter.meterErrorDetail` keeps it (in the meter
 * cache, `pools --json`, `pools --debug`).
 *
 * The readers already keep credentials out of their messages: the Claude Code reader names the
 * credentials file, never the token, and HTTP errors name the URL and status only. Two parts of a
 * message come from outside bullswarm, though: a meter command's line (whose arguments may expand
 * `{{env.NAME}}`) and the tail of its stderr. So before a message is stored or shown, the value
 * of every environment variable of the read (the base environment with the pool's account
 * environment over it) whose name looks like a credential (`*TOKEN*`, `*SECRET*`, `*API_KEY*`,
 * `*PASSWORD*`, `*AUTH*`, …, values of 8+ characters) is replaced by `<NAME>`, and a
 * `Bearer <value>` by `Bearer <redacted>`. The result is at most
 * {@link MAX_METER_ERROR_DETAIL_CHARS} characters.
 */
export function meterErrorDetail(
  error: Pick<MeterReadError, 'message'>,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  let detail = error.message;
  const secrets = Object.entries(env)
    .filter((entry): entry is [string, string] => {
      const [name, value] = entry;
      return value !== undefined && value.length >= MIN_SECRET_LENGTH && SECRET_NAME.test(name);
    })
    // Longest first, so a secret that contains another is replaced whole.
    .sort((a, b) => b[1].length - a[1].length);
  for (const [name, value] of secrets) detail = detail.split(value).join(`<${name}>`);
  detail = detail.replace(/\bBearer\s+[^\s"',;]+/gi, 'Bearer <redacted>');
  return detail.length > MAX_METER_ERROR_DETAIL_CHARS
    ? `${detail.slice(0, MAX_METER_ERROR_DETAIL_CHARS - 1)}…`
    : detail;
}
