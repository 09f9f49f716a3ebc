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
