import { describe, expect, it } from 'vitest';
import { parseAbsoluteTime, parseDurationPrefix, parseResetFromText, parseWaitFromText } from './parse-reset';
import { nextClockTime, parseNoticeZone, wallTimeToEpoch } from './zoned-time';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const at = (text: string, zone = 'UTC', now = NOW) => {
  const ms = parseResetFromText(text, now, zone);
  return ms === undefined ? undefined : new Date(ms).toISOString();
};

describe('parseDurationPrefix', () => {
  it.each([
    ['4 days 20 hours 9 minutes', ((4 * 24 + 20) * 60 + 9) * 60_000],
    ['1d 5h, please try again', 29 * 3_600_000],
    ['15h2m27s.', (15 * 3600 + 2 * 60 + 27) * 1000],
    ['30s', 30_000],
    ['12.450706s.', 12_451],
    ['90 seconds', 90_000],
    ['2 minutes and 5 seconds', 125_000],
    ['250ms', 250],
    ['1 hr', 3_600_000],
  ])('%s', (text, ms) => {
    expect(parseDurationPrefix(text)).toBe(ms);
  });

  it.each(['a moment', 'later', '', '5', 'minutes'])('no duration in %j', (text) => {
    expect(parseDurationPrefix(text)).toBeUndefined();
  });
});

describe('parseResetFromText', () => {
  it('reads clock times as the next occurrence after now, in the named zone', () => {
    expect(at('resets 11pm (America/Anchorage)')).toBe('2026-12-01T08:00:00.000Z');
    expect(at('resets 9:30pm')).toBe('2026-11-30T21:30:00.000Z');
    expect(at('resets 5am')).toBe('2026-12-01T05:00:00.000Z');
    expect(at('resets 5am', 'Asia/Tokyo')).toBe('2026-11-30T20:00:00.000Z');
    expect(at('try again at 12:00 PM')).toBe('2026-12-01T12:00:00.000Z');
    expect(at('resets 12am (UTC)')).toBe('2026-12-01T00:00:00.000Z');
  });

  it('reads dates with and without a year', () => {
    expect(at('resets Dec 2, 2am (UTC)')).toBe('2026-12-02T02:00:00.000Z');
    expect(at('resets Nov 30, 1am (UTC)')).toBe('2026-11-30T01:00:00.000Z');
    expect(at('resets Jan 3 at 7pm (Europe/Berlin)')).toBe('2027-01-03T18:00:00.000Z');
    expect(at('try again at Feb 1st, 2027 1:05 AM.')).toBe('2027-02-01T01:05:00.000Z');
    expect(at('You will regain access on 2025-06-01 at 00:00 UTC.')).toBe('2025-06-01T00:00:00.000Z');
  });

  it('handles DST in the named zone', () => {
    const summerNow = Date.parse('2026-07-01T00:00:00Z');
    expect(at('resets 9am (America/New_York)', 'UTC', summerNow)).toBe('2026-07-01T13:00:00.000Z');
    // 2026-03-08 02:30 does not exist in New York (spring forward): resolved forward.
    expect(
      new Date(
        wallTimeToEpoch(
          { year: 2026, month: 3, day: 8, hour: 2, minute: 30 },
          { kind: 'iana', name: 'America/New_York' },
        ),
      ).toISOString(),
    ).toBe('2026-03-08T07:30:00.000Z');
    // 2026-11-01 01:30 happens twice: the first (EDT) is chosen.
    expect(
      new Date(
        wallTimeToEpoch(
          { year: 2026, month: 11, day: 1, hour: 1, minute: 30 },
          { kind: 'iana', name: 'America/New_York' },
        ),
      ).toISOString(),
    ).toBe('2026-11-01T05:30:00.000Z');
  });

  it('reads epochs, relative durations and JSON fields', () => {
    expect(at('Claude AI usage limit reached|1755615600')).toBe('2025-08-19T15:00:00.000Z');
    expect(at('Claude AI usage limit reached|1755615600000')).toBe('2025-08-19T15:00:00.000Z');
    expect(at('{"resets_in_seconds":8899}')).toBe('2026-11-30T14:28:19.000Z');
    expect(at('The limit resets in 1d 5h')).toBe('2026-12-01T17:00:00.000Z');
    expect(at('Your quota will reset after 15h2m27s.')).toBe('2026-12-01T03:02:27.000Z');
  });

  it('finds nothing where no reset is named', () => {
    expect(at("You've hit your usage limit. Try again later.")).toBeUndefined();
    expect(at('Credit balance is too low')).toBeUndefined();
    expect(at('resets 25pm')).toBeUndefined();
    expect(at('resets 11pm (Mars/Olympus)')).toBeUndefined();
  });
});

describe('parseWaitFromText', () => {
  it.each([
    ['Retry-After: 30', 30_000],
    ['"retryDelay": "12s"', 12_000],
    ['{"retry_delay_ms": 592}', 592],
    ['Please try again in 3.046s. Visit', 3046],
    ['Please retry in 12.5s.', 12_500],
    ['wait 20 seconds', 20_000],
  ])('%s', (text, ms) => {
    expect(parseWaitFromText(text)).toBe(ms);
  });

  it('is undefined without a named wait', () => {
    expect(parseWaitFromText('try again in a moment')).toBeUndefined();
    expect(parseWaitFromText('429 Too Many Requests')).toBeUndefined();
  });
});

describe('zones', () => {
  it('parses offsets and IANA names, rejects abbreviations', () => {
    expect(parseNoticeZone('GMT-3')).toEqual({ kind: 'offset', minutes: -180 });
    expect(parseNoticeZone('UTC+05:30')).toEqual({ kind: 'offset', minutes: 330 });
    expect(parseNoticeZone('UTC')).toEqual({ kind: 'offset', minutes: 0 });
    expect(parseNoticeZone('Europe/Warsaw')).toEqual({ kind: 'iana', name: 'Europe/Warsaw' });
    expect(parseNoticeZone('PST')).toBeUndefined();
  });

  it('absolute time without a reset word is parsed directly', () => {
    expect(new Date(parseAbsoluteTime('3:28 PM', NOW, 'UTC') ?? 0).toISOString()).toBe(
      '2026-11-30T15:28:00.000Z',
    );
    expect(nextClockTime(NOW, 12, 0, { kind: 'offset', minutes: 0 })).toBe(NOW + 86_400_000);
  });
});
