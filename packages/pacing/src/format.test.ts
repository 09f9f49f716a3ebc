import { describe, expect, it } from 'vitest';
import { formatCompact, formatDuration, formatFixed1, formatPct, formatSurplus, formatTime } from './format';

describe('formatCompact', () => {
  it.each([
    [40, '40'],
    [-2.1, '-2.1'],
    [88.14, '88.1'],
    [72.5 - 74, '-1.5'],
    [0, '0'],
    [-0.01, '0'],
    [1800.0000000000002, '1800'],
    [99.96, '100'],
  ])('%d → %s', (value, expected) => {
    expect(formatCompact(value)).toBe(expected);
  });
});

describe('other number formats', () => {
  it.each([
    [12, '12.0'],
    [40, '40.0'],
    [12.345, '12.3'],
  ])('formatFixed1(%d) → %s', (value, expected) => {
    expect(formatFixed1(value)).toBe(expected);
  });

  it('formatPct and formatSurplus print `?` and `-` for unknown values', () => {
    expect(formatPct(81)).toBe('81%');
    expect(formatPct(null)).toBe('?%');
    expect(formatSurplus(12.34)).toBe('12.3');
    expect(formatSurplus(null)).toBe('-');
  });
});

describe('formatTime', () => {
  it('prints ISO-8601 UTC without milliseconds', () => {
    expect(formatTime(Date.UTC(2026, 10, 30, 11, 0, 0, 789))).toBe('2026-11-30T11:00:00Z');
  });

  it('drops the milliseconds of six-digit and negative years too, and throws for an invalid date', () => {
    expect(formatTime(8.64e15)).toBe('+275760-09-13T00:00:00Z');
    expect(formatTime(Date.UTC(-1, 0, 1, 0, 0, 0, 5))).toBe('-000001-01-01T00:00:00Z');
    expect(formatTime(Date.UTC(99_999, 0, 1))).toBe('+099999-01-01T00:00:00Z');
    expect(() => formatTime(8.64e15 + 1)).toThrow(RangeError);
  });

  it('prints what Date prints for years 1970–9999 (computed without a Date there), seeded', () => {
    const viaDate = (ms: number) => `${new Date(ms).toISOString().slice(0, -5)}Z`;
    const end = Date.UTC(10_000, 0, 1);
    const edges = [
      0,
      0.5,
      999.999,
      1000,
      -0,
      Date.UTC(1972, 1, 29, 23, 59, 59, 999),
      Date.UTC(1972, 11, 31, 23, 59, 59),
      Date.UTC(2000, 1, 29, 12),
      Date.UTC(2100, 1, 28, 23, 59, 59),
      Date.UTC(2100, 2, 1),
      Date.UTC(2026, 11, 3, 8, 5, 9, 1),
      end - 1,
      end - 1000,
      end,
      end + 0.5,
    ];
    for (const ms of edges) expect(formatTime(ms), String(ms)).toBe(viaDate(ms));
    // mulberry32, so every run checks the same instants: whole seconds, whole minutes and any ms.
    let a = 20261203;
    const next = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    for (let i = 0; i < 20_000; i++) {
      const raw = next() * end;
      const ms =
        i % 3 === 0 ? raw : i % 3 === 1 ? Math.floor(raw / 1000) * 1000 : Math.floor(raw / 60_000) * 60_000;
      expect(formatTime(ms), String(ms)).toBe(viaDate(ms));
    }
  });
});

describe('formatDuration', () => {
  it.each([
    [45, '45m'],
    [0.2, '0m'],
    [59.6, '1h 0m'],
    [125, '2h 5m'],
    [120, '2h 0m'],
    [1310.4, '21h 50m'],
    [3 * 24 * 60 + 4 * 60 + 30, '3d 4h'],
    [24 * 60, '1d 0h'],
  ])('%d minutes → %s', (minutes, expected) => {
    expect(formatDuration(minutes)).toBe(expected);
  });
});
