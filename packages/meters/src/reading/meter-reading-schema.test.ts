import { describe, expect, it } from 'vitest';
import { MeterReadError } from '../errors/meter-read-error';
import { meterReadingJsonSchema } from './meter-reading-schema';
import { parseMeterReading, parseMeterReadingText } from './parse-meter-reading';

const origin = { sourceType: 'file', description: 'meter file /tmp/m.json', location: '/tmp/m.json' };

function failure(fn: () => unknown): MeterReadError {
  try {
    fn();
  } catch (error) {
    if (MeterReadError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a MeterReadError');
}

describe('meter reading format', () => {
  it('pins the published JSON Schema', async () => {
    await expect(`${JSON.stringify(meterReadingJsonSchema(), null, 2)}\n`).toMatchFileSnapshot(
      '../../meter-reading.schema.json',
    );
  });

  it('parses ISO and epoch-ms resets, fills window minutes, keeps over-100 usage', () => {
    const parsed = parseMeterReading(
      {
        $schema: 'ignored',
        readAt: '2026-05-23T03:00:00+02:00',
        rateLimited: true,
        windows: [
          { kind: 'five_hour', usedPct: 104.5, resetsAt: '2026-05-23T05:00:00Z' },
          { kind: 'weekly', usedPct: 30, resetsAt: 1_780_000_000_000 },
          { kind: 'monthly', usedPct: 0 },
          { kind: 'monthly', usedPct: 1, windowMinutes: 44_640 },
        ],
      },
      origin,
    );
    expect(parsed).toEqual({
      readAt: Date.parse('2026-05-23T01:00:00Z'),
      rateLimited: true,
      windows: [
        {
          kind: 'five_hour',
          usedPct: 104.5,
          resetsAt: Date.parse('2026-05-23T05:00:00Z'),
          windowMinutes: 300,
        },
        { kind: 'weekly', usedPct: 30, resetsAt: 1_780_000_000_000, windowMinutes: 10_080 },
        { kind: 'monthly', usedPct: 0, windowMinutes: 43_200 },
        { kind: 'monthly', usedPct: 1, windowMinutes: 44_640 },
      ],
    });
    expect(parseMeterReading({ windows: [] }, origin)).toEqual({ windows: [] });
  });

  it.each([
    [{ windows: [{ kind: 'five_hour', usedPct: '12' }] }, 'windows[0].usedPct', /expected number/],
    [{ windows: [{ kind: 'daily', usedPct: 1 }] }, 'windows[0].kind', /five_hour/],
    [{ windows: [{ kind: 'weekly', usedPct: -1 }] }, 'windows[0].usedPct', />=0/],
    [
      { windows: [{ kind: 'weekly', usedPct: 1, resetsAt: 1_780_000_000 }] },
      'windows[0].resetsAt',
      /epoch seconds/,
    ],
    [{ windows: [{ kind: 'weekly', usedPct: 1, resetsAt: 'next monday' }] }, 'windows[0].resetsAt', /ISO/],
    [{ readAt: 'yesterday', windows: [] }, 'readAt', /ISO/],
    [{}, 'windows', /expected array/],
    [[], '(root)', /expected object/],
  ])('rejects %j naming %s', (json, fieldPath, detail) => {
    const error = failure(() => parseMeterReading(json, origin));
    expect(error).toMatchObject({
      reason: 'bad-reading',
      fieldPath,
      location: '/tmp/m.json',
      status: 'bad meter reading',
    });
    expect(error.message).toContain('meter file /tmp/m.json');
    expect(error.message).toContain(fieldPath);
    expect(error.message).toMatch(detail);
  });

  it('names the origin when the text is not JSON or is empty', () => {
    expect(failure(() => parseMeterReadingText('{"windows": [', origin)).message).toMatch(
      /^meter file \/tmp\/m\.json: it is not JSON/,
    );
    expect(failure(() => parseMeterReadingText('  \n', origin)).message).toMatch(/it is empty/);
  });
});
