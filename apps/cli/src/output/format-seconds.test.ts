import { describe, expect, it } from 'vitest';
import { formatCountdownMs, formatShortDuration } from './format-seconds';

describe('formatShortDuration', () => {
  it('prints under a minute in seconds, else minutes, hours and days', () => {
    expect(formatShortDuration(0.5)).toBe('30s');
    expect(formatShortDuration(5)).toBe('5m');
    expect(formatShortDuration(65)).toBe('1h 5m');
  });
});

describe('formatCountdownMs', () => {
  it('rounds the seconds left up, so a wait under a minute never reads 0m or 0s', () => {
    expect(formatCountdownMs(1500)).toBe('2s');
    expect(formatCountdownMs(1)).toBe('1s');
    expect(formatCountdownMs(45_000)).toBe('45s');
    expect(formatCountdownMs(59_001)).toBe('1m');
    expect(formatCountdownMs(10 * 60_000)).toBe('10m');
    expect(formatCountdownMs(65 * 60_000)).toBe('1h 5m');
    expect(formatCountdownMs(0)).toBe('0s');
  });
});
