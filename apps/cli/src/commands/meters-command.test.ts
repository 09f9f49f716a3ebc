import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../cli/cli-errors';
import { manualWindows } from './meters-command';

describe('manualWindows (meters set)', () => {
  it('builds one window per flag given, with its default length and a --resets-at that names it', () => {
    expect(manualWindows({ '5h': '12.5', weekly: '40%', resetsAt: ['5h=2026-12-01T00:00:00Z'] })).toEqual([
      { kind: 'five_hour', usedPct: 12.5, windowMinutes: 300, resetsAt: Date.parse('2026-12-01T00:00:00Z') },
      { kind: 'weekly', usedPct: 40, windowMinutes: 10_080 },
    ]);
  });

  it('a --resets-at for a window not being set names that window and the flag that would set it', () => {
    const error = (() => {
      try {
        manualWindows({ weekly: '40', resetsAt: ['five_hour=2026-12-01T00:00:00Z'] });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(CliUsageError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      flag: '--resets-at',
      message: '--resets-at names the 5h window, which is not being set: add --5h <pct>',
    });
  });

  it('a used share above 100% is refused: a reading typed by hand is 0 to 100', () => {
    expect(() => manualWindows({ weekly: '150' })).toThrow(
      '--weekly "150" is not valid: expected a percentage such as 42 or 87.5 (0 to 100)',
    );
    expect(manualWindows({ weekly: '100' })[0]?.usedPct).toBe(100);
  });

  it('no window at all is a usage error naming the three flags', () => {
    expect(() => manualWindows({})).toThrow(
      'meters set needs at least one of --5h <pct>, --weekly <pct>, --monthly <pct>',
    );
  });
});
