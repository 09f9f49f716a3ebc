/**
 * Wall-clock ↔ epoch conversion in an IANA zone or a fixed offset, with `Intl` only (no
 * dependency). Used to turn provider texts such as `resets 11pm (America/Anchorage)` into epoch ms.
 */

/** A zone a notice named: an IANA name (`Europe/Warsaw`, `UTC`) or a fixed offset (`GMT-3`). */
export type NoticeZone =
  | { readonly kind: 'iana'; readonly name: string }
  | { readonly kind: 'offset'; readonly minutes: number };

export type WallTime = {
  readonly year: number;
  readonly month: number; // 1-12
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
};

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** True when `name` is an IANA zone this runtime knows. */
export function isKnownTimeZone(name: string): boolean {
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses a zone as notices print it: an IANA name, `UTC`/`GMT`/`Z`, or an offset such as
 * `GMT-3`, `UTC+05:30`, `+0200`. Returns undefined for anything else (e.g. `PST`, which is
 * ambiguous).
 */
export function parseNoticeZone(text: string): NoticeZone | undefined {
  const value = text.trim();
  if (/^(?:utc|gmt|z)$/i.test(value)) return { kind: 'offset', minutes: 0 };
  const offset = /^(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(value);
  if (offset) {
    const minutes = Number(offset[2]) * 60 + Number(offset[3] ?? 0);
    return { kind: 'offset', minutes: offset[1] === '-' ? -minutes : minutes };
  }
  if (/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+$/.test(value) && isKnownTimeZone(value))
    return { kind: 'iana', name: value };
  return undefined;
}

/** The zone's offset from UTC at `epochMs`, in ms. */
function offsetMs(epochMs: number, zone: NoticeZone): number {
  if (zone.kind === 'offset') return zone.minutes * 60_000;
  const parts = formatterFor(zone.name).formatToParts(new Date(epochMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return asUtc - Math.floor(epochMs / 1000) * 1000;
}

/** The wall-clock date and time in `zone` at `epochMs`. */
export function wallTimeAt(epochMs: number, zone: NoticeZone): WallTime {
  const local = new Date(epochMs + offsetMs(epochMs, zone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
  };
}

/** The epoch ms of a wall-clock time in `zone` (DST gaps resolve forward, overlaps to the first). */
export function wallTimeToEpoch(wall: WallTime, zone: NoticeZone): number {
  const guess = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const first = guess - offsetMs(guess, zone);
  const second = guess - offsetMs(first, zone);
  const matches = (epoch: number) => {
    const back = wallTimeAt(epoch, zone);
    return back.hour === wall.hour && back.minute === wall.minute && back.day === wall.day;
  };
  const exact = [first, second].filter(matches).sort((a, b) => a - b);
  return exact[0] ?? Math.max(first, second);
}

/** The first instant after `now` at which the clock in `zone` shows `hour:minute`. */
export function nextClockTime(now: number, hour: number, minute: number, zone: NoticeZone): number {
  const today = wallTimeAt(now, zone);
  for (let addDays = 0; addDays < 3; addDays += 1) {
    const day = new Date(Date.UTC(today.year, today.month - 1, today.day + addDays));
    const candidate = wallTimeToEpoch(
      { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour, minute },
      zone,
    );
    if (candidate > now) return candidate;
  }
  return now;
}
