import { redactSecrets } from '@bullswarm/connectors';
import type { MeterReadError } from '../errors/meter-read-error';

/** Longest detail kept; a longer message (a chatty command's stderr) is cut with `…`. */
export const MAX_METER_ERROR_DETAIL_CHARS = 1000;

/**
 * The full message of a failed meter read as `PoolMeter.meterErrorDetail` keeps it (in the meter
 * cache, `pools --json`, `pools --debug`).
 *
 * The readers already keep credentials out of their messages: the Claude Code reader names the
 * credentials file, never the token, and HTTP errors name the URL and status only. Two parts of a
 * message come from outside bullswarm, though: a meter command's line (whose arguments may expand
 * `{{env.NAME}}`) and the tail of its stderr. So before a message is stored or shown it goes
 * through bullswarm's one redactor (`redactSecrets` of `@bullswarm/connectors`) over the
 * environment of the read (the base environment with the pool's account environment over it):
 * token shapes, credential-named variables' values and `Bearer <value>` become
 * `[redacted <kind>]`. The result is at most
 * {@link MAX_METER_ERROR_DETAIL_CHARS} characters.
 */
export function meterErrorDetail(
  error: Pick<MeterReadError, 'message'>,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  const detail = redactSecrets(error.message, env);
  return detail.length > MAX_METER_ERROR_DETAIL_CHARS
    ? `${detail.slice(0, MAX_METER_ERROR_DETAIL_CHARS - 1)}…`
    : detail;
}
