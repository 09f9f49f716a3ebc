import { type NoticeZone, nextClockTime, parseNoticeZone, wallTimeAt, wallTimeToEpoch } from './zoned-time';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const UNIT_MS: Array<[RegExp, number]> = [
  [/^(?:days?|d)$/i, 86_400_000],
  [/^(?:hours?|hrs?|h)$/i, 3_600_000],
  [/^(?:minutes?|mins?|m)$/i, 60_000],
  [/^(?:seconds?|secs?|s)$/i, 1000],
  [/^ms$/i, 1],
];

const DURATION_TOKEN =
  /(\d+(?:\.\d+)?)\s*(ms|days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)(?![a-z])/iy;

/**
 * Parses a duration at the start of `text`: `4 days 20 hours 9 minutes`, `1d 5h`, `15h2m27s`,
 * `30s`, `12.45s`, `90 seconds`. Returns ms, or undefined when `text` does not start with one.
 */
export function parseDurationPrefix(text: string): number | undefined {
  let index = 0;
  let total = 0;
  let matched = false;
  for (;;) {
    const gap = /^(?:\s|,|and\s)*/i.exec(text.slice(index));
    const start = index + (gap ? gap[0].length : 0);
    DURATION_TOKEN.lastIndex = start;
    const token = DURATION_TOKEN.exec(text);
    if (!token) break;
    const unit = UNIT_MS.find(([pattern]) => pattern.test(token[2] ?? ''));
    if (!unit) break;
    total += Number(token[1]) * unit[1];
    matched = true;
    index = DURATION_TOKEN.lastIndex;
  }
  return matched ? Math.round(total) : undefined;
}

type ClockTime = { hour: number; minute: number };

function parseClock(
  hourText: string,
  minuteText: string | undefined,
  meridiem: string | undefined,
): ClockTime | undefined {
  let hour = Number(hourText);
  const minute = Number(minuteText ?? 0);
  if (minute > 59) return undefined;
  if (meridiem) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
  } else if (hour > 23 || minuteText === undefined) {
    return undefined; // a bare number ("resets 5") is not a time
  }
  return { hour, minute };
}

const CLOCK = String.raw`(\d{1,2})(?::(\d{2}))?\s*(am|pm)?`;
const ZONE = String.raw`(?:\s*\(([^)]{1,40})\)|\s+((?:UTC|GMT)(?:\s*[+-]\d{1,2}(?::?\d{2})?)?|[A-Za-z]+\/[A-Za-z0-9_+/-]+))?`;
const MONTH_DATE = String.raw`(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?`;

const ISO_DATE_TIME = new RegExp(
  String.raw`^(\d{4})-(\d{2})-(\d{2})(?:(?:\s+at\s+|T|\s+)(\d{1,2}):(\d{2}))?${ZONE}`,
  'i',
);
const MONTH_DATE_TIME = new RegExp(String.raw`^${MONTH_DATE}(?:(?:,\s*|\s+at\s+|\s+)${CLOCK})?${ZONE}`, 'i');
const CLOCK_ONLY = new RegExp(`^${CLOCK}${ZONE}`, 'i');

function zoneFrom(named: string | undefined, fallback: string): NoticeZone | undefined {
  if (named !== undefined) return parseNoticeZone(named);
  return parseNoticeZone(fallback) ?? { kind: 'offset', minutes: 0 };
}

/**
 * Parses an absolute time expression at the start of `text` (after words like `resets`): a clock
 * time (`11pm`, `12:50am`, `3:28 PM`), a date and time (`Jul 31, 2am`, `Sep 15 at 7pm`,
 * `Oct 9th, 2026 11:58 PM`, `2025-06-01 at 00:00`), each with an optional zone (`(UTC)`,
 * `(America/Anchorage)`, `GMT-3`). A zone the text does not name is `timeZone`.
 *
 * Choices: a clock time without a date is its next occurrence after `now`; a date without a year
 * is in `now`'s year, or the next year when that is more than a day in the past; a date without a
 * time is midnight.
 */
export function parseAbsoluteTime(text: string, now: number, timeZone: string): number | undefined {
  const iso = ISO_DATE_TIME.exec(text);
  if (iso) {
    const zone = zoneFrom(iso[6] ?? iso[7], timeZone);
    if (!zone) return undefined;
    return wallTimeToEpoch(
      {
        year: Number(iso[1]),
        month: Number(iso[2]),
        day: Number(iso[3]),
        hour: Number(iso[4] ?? 0),
        minute: Number(iso[5] ?? 0),
      },
      zone,
    );
  }
  const dated = MONTH_DATE_TIME.exec(text);
  if (dated) {
    const month = MONTHS.indexOf((dated[1] ?? '').toLowerCase()) + 1;
    const day = Number(dated[2]);
    const clock = dated[4] === undefined ? { hour: 0, minute: 0 } : parseClock(dated[4], dated[5], dated[6]);
    const zone = zoneFrom(dated[7] ?? dated[8], timeZone);
    if (!clock || !zone || month < 1 || day < 1 || day > 31) return undefined;
    const wall = { month, day, hour: clock.hour, minute: clock.minute };
    if (dated[3] !== undefined) return wallTimeToEpoch({ ...wall, year: Number(dated[3]) }, zone);
    const year = wallTimeAt(now, zone).year;
    const thisYear = wallTimeToEpoch({ ...wall, year }, zone);
    return thisYear < now - 86_400_000 ? wallTimeToEpoch({ ...wall, year: year + 1 }, zone) : thisYear;
  }
  const clockOnly = CLOCK_ONLY.exec(text);
  if (clockOnly) {
    const clock = parseClock(clockOnly[1] ?? '', clockOnly[2], clockOnly[3]);
    const zone = zoneFrom(clockOnly[4] ?? clockOnly[5], timeZone);
    if (!clock || !zone) return undefined;
    return nextClockTime(now, clock.hour, clock.minute, zone);
  }
  return undefined;
}

const ANCHOR = /\b(?:resets?|try again|retry|regain access|available again)\b/gi;

/**
 * Finds the reset a limit notice names, relative to `now`:
 * - `…|1755615600` (old Claude: epoch seconds), `"resets_at":1788543035`, `"resets_in_seconds":8899`;
 * - `resets in 1d 5h`, `Try again in 4 days 20 hours 9 minutes`, `reset after 15h2m27s`;
 * - `resets 11pm (America/Anchorage)`, `reset at 5pm (Europe/Warsaw)`, `resets Jul 31, 2am (UTC)`,
 *   `try again at 3:28 PM`, `try again at Oct 9th, 2026 11:58 PM`, `Access resets at 10:57 PM GMT-3`,
 *   `regain access on 2025-06-01 at 00:00 UTC`.
 * Returns epoch ms, or undefined when the text names no reset.
 */
export function parseResetFromText(text: string, now: number, timeZone: string): number | undefined {
  const pipe = /\|\s*(\d{9,13})\b/.exec(text);
  if (pipe) return epochMs(Number(pipe[1]));
  const resetsAt = /"?resets_at"?\s*[:=]\s*"?(\d{9,13})\b/.exec(text);
  if (resetsAt) return epochMs(Number(resetsAt[1]));
  const resetsIn = /"?resets_in_seconds"?\s*[:=]\s*(\d+)/.exec(text);
  if (resetsIn) return now + Number(resetsIn[1]) * 1000;
  for (const anchor of text.matchAll(ANCHOR)) {
    const rest = text.slice(
      (anchor.index ?? 0) + anchor[0].length,
      (anchor.index ?? 0) + anchor[0].length + 120,
    );
    const relative = /^\s*(?:in|after)\s+/i.exec(rest);
    if (relative) {
      const ms = parseDurationPrefix(rest.slice(relative[0].length));
      if (ms !== undefined) return now + ms;
      continue;
    }
    const absolute = /^\s*(?:at|on)?\s*/i.exec(rest);
    const value = parseAbsoluteTime(rest.slice(absolute ? absolute[0].length : 0), now, timeZone);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * Finds the wait a throttle notice names: `Retry-After: 30`, `"retryDelay":"12s"`,
 * `try again in 30s`, `retry in 12.45s`, `retry after 2 minutes`, `wait 20 seconds`. Returns ms.
 */
export function parseWaitFromText(text: string): number | undefined {
  const header = /retry-after"?\s*[:=]\s*"?(\d+(?:\.\d+)?)\b/i.exec(text);
  if (header) return Math.round(Number(header[1]) * 1000);
  const delay = /"?retry_?delay(?:_ms)?"?\s*[:=]\s*"?(\d+(?:\.\d+)?)(ms|s)?"?/i.exec(text);
  if (delay) {
    const unit = delay[2]?.toLowerCase();
    const isMs = unit === 'ms' || (unit === undefined && /_ms/i.test(delay[0]));
    return Math.round(Number(delay[1]) * (isMs ? 1 : 1000));
  }
  for (const anchor of text.matchAll(/\b(?:try again|retry|retrying|wait)\b/gi)) {
    const rest = text.slice(
      (anchor.index ?? 0) + anchor[0].length,
      (anchor.index ?? 0) + anchor[0].length + 60,
    );
    const lead = /^\s*(?:in|after|for)?\s*/i.exec(rest);
    const ms = parseDurationPrefix(rest.slice(lead ? lead[0].length : 0));
    if (ms !== undefined) return ms;
  }
  return undefined;
}

function epochMs(value: number): number {
  return value < 1e12 ? value * 1000 : value;
}
