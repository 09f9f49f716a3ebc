import { ISO_INSTANT_FORM, parseIsoInstant } from '@bullswarm/connectors/internal';
import { InvalidEnvironmentError } from '../errors/invalid-environment-error';

/** A source of "now", in epoch milliseconds. */
export type Clock = () => number;

/** The environment variable that freezes bullswarm's clock. */
export const BULLSWARM_NOW = 'BULLSWARM_NOW';

/**
 * The clock every bullswarm decision reads time through.
 *
 * When `BULLSWARM_NOW` is set to an ISO-8601 instant (the one rule, `parseIsoInstant` of
 * `@bullswarm/connectors/internal`) the clock always returns that instant (for
 * tests, demos and reproducing a past decision); otherwise it is `Date.now`. The variable is read
 * and validated once, when the clock is created, so a bad value fails fast with an
 * {@link InvalidEnvironmentError} naming `BULLSWARM_NOW` and the expected form. An empty value counts
 * as unset (so `BULLSWARM_NOW= bullswarm …` turns it off).
 *
 * @example
 * ```ts
 * const now = createClock(); // reads process.env
 * const frozen = createClock({ BULLSWARM_NOW: '2026-09-10T12:00:00Z' });
 * frozen(); // 1789041600000, every time
 * ```
 */
export function createClock(env: Readonly<Record<string, string | undefined>> = process.env): Clock {
  const raw = env[BULLSWARM_NOW];
  if (raw === undefined || raw.trim() === '') return Date.now;
  const fixed = parseIsoInstant(raw.trim());
  if (fixed === undefined) {
    throw new InvalidEnvironmentError({ variable: BULLSWARM_NOW, value: raw, expected: ISO_INSTANT_FORM });
  }
  return () => fixed;
}
