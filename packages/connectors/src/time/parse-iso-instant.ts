/** The form {@link parseIsoInstant} accepts, in the words an error names it with. */
export const ISO_INSTANT_FORM =
  'an ISO-8601 instant with a time zone, such as 2026-09-10T12:00:00Z or 2026-09-10T14:00:00.000+02:00 ' +
  '(or a date alone, 2026-09-10, meaning midnight UTC)';

// Date and time with seconds optional, fraction optional, and a mandatory zone (Z or ±hh:mm / ±hhmm);
// or a date alone. A zone-less date-time is refused: it would mean local time, which differs per machine.
const isoInstant = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|z|[+-]\d{2}:?\d{2}))?$/;

/**
 * Parse an ISO-8601 instant — the one rule for `BULLSWARM_NOW` (bullswarm's clock, `createClock`
 * of `@bullswarm/store`, and the sim's) and every instant a user gives (the CLI's `--resets-at`): a date and time with a zone (`2026-09-10T12:00:00Z`,
 * `2026-09-10T14:00+02:00`), or a date alone (midnight UTC). Returns epoch ms, or undefined when the
 * text is not such an instant. A zone-less time is refused (it would mean a different instant per
 * machine), and so is a date or time that does not exist — `2026-02-30`, `12:61`, and `24:00`
 * (ISO-8601's end-of-day form: write the next day's `00:00` instead) — where `Date.parse` would
 * roll it over into the next month, hour or day.
 */
export function parseIsoInstant(text: string): number | undefined {
  if (!isoInstant.test(text)) return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d)
    return undefined;
  const time = /T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(text);
  if (time !== null && (Number(time[1]) > 23 || Number(time[2]) > 59 || Number(time[3] ?? 0) > 59))
    return undefined;
  return ms;
}
