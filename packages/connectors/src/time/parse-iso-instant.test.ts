import { describe, expect, it } from 'vitest';
import { simNow } from '../sim/run-sim';
import { parseIsoInstant } from './parse-iso-instant';

describe('parseIsoInstant (the one ISO-8601 rule: BULLSWARM_NOW, the sim, --resets-at)', () => {
  it.each([
    ['2026-09-10T12:00:00Z', Date.UTC(2026, 8, 10, 12)],
    ['2026-09-10T12:00:00.250Z', Date.UTC(2026, 8, 10, 12, 0, 0, 250)],
    ['2026-09-10T14:00:00+02:00', Date.UTC(2026, 8, 10, 12)],
    ['2026-09-10T14:00+0200', Date.UTC(2026, 8, 10, 12)],
    ['2026-09-10', Date.UTC(2026, 8, 10)],
  ])('accepts %s', (text, expected) => {
    expect(parseIsoInstant(text)).toBe(expected);
  });

  it.each([
    'yesterday',
    '2026-09-10T12:00:00',
    '2026-02-30T00:00:00Z',
    '1789041600000',
    '2026-13-01',
    '2026-12-01T24:00Z',
    '2026-12-01T24:00:00+02:00',
    '2026-12-01T12:61Z',
    '2026-12-01T12:00:60Z',
  ])('refuses %s', (text) => {
    expect(parseIsoInstant(text)).toBeUndefined();
  });

  it('the sim reads BULLSWARM_NOW by the same rule (T24:00 is refused there too)', () => {
    expect(simNow({ BULLSWARM_NOW: '2026-09-10T14:00+02:00' })).toBe(Date.UTC(2026, 8, 10, 12));
    expect(() => simNow({ BULLSWARM_NOW: '2026-12-01T24:00Z' })).toThrow(/BULLSWARM_NOW.*ISO-8601/);
    expect(() => simNow({ BULLSWARM_NOW: '1789041600000' })).toThrow(/BULLSWARM_NOW/);
  });
});
