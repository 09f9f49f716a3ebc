import { describe, expect, it } from 'vitest';
import { InvalidEnvironmentError } from '../errors/invalid-environment-error';
import { catchError } from '../test-support/catch-error';
import { BULLSWARM_NOW, createClock } from './create-clock';

describe('createClock', () => {
  it('is Date.now when BULLSWARM_NOW is unset or empty', () => {
    expect(createClock({})).toBe(Date.now);
    expect(createClock({ BULLSWARM_NOW: '' })).toBe(Date.now);
    expect(createClock({ BULLSWARM_NOW: '  ' })).toBe(Date.now);
  });

  it('always returns the instant BULLSWARM_NOW names', () => {
    const now = createClock({ BULLSWARM_NOW: '2026-09-10T12:00:00Z' });
    expect(now()).toBe(Date.UTC(2026, 8, 10, 12));
    expect(now()).toBe(Date.UTC(2026, 8, 10, 12));
  });

  it.each([
    ['2026-09-10T12:00:00.250Z', Date.UTC(2026, 8, 10, 12, 0, 0, 250)],
    ['2026-09-10T14:00:00+02:00', Date.UTC(2026, 8, 10, 12)],
    ['2026-09-10T14:00+0200', Date.UTC(2026, 8, 10, 12)],
    ['2026-09-10', Date.UTC(2026, 8, 10)],
  ])('accepts %s', (text, expected) => {
    expect(createClock({ BULLSWARM_NOW: text })()).toBe(expected);
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
  ])('refuses %s naming BULLSWARM_NOW and the expected form', (text) => {
    const caught = catchError(() => createClock({ BULLSWARM_NOW: text }));
    expect(InvalidEnvironmentError.isInstance(caught)).toBe(true);
    const error = caught as InvalidEnvironmentError;
    expect(error.variable).toBe(BULLSWARM_NOW);
    expect(error.value).toBe(text);
    expect(error.message).toContain('BULLSWARM_NOW');
    expect(error.message).toContain('ISO-8601');
  });

  it('reads process.env by default', () => {
    const before = process.env.BULLSWARM_NOW;
    process.env.BULLSWARM_NOW = '2030-01-01T00:00:00Z';
    try {
      expect(createClock()()).toBe(Date.UTC(2030, 0, 1));
    } finally {
      if (before === undefined) delete process.env.BULLSWARM_NOW;
      else process.env.BULLSWARM_NOW = before;
    }
  });
});
