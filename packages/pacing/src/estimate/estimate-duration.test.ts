import { describe, expect, it } from 'vitest';
import { run } from '../test-support/make-pool';
import type { RunSample } from '../types';
import { estimateDuration } from './estimate-duration';
import { fillRecordedMinutes, median, medianOfFirst, recordedMinutes } from './recorded-minutes';

describe('estimateDuration', () => {
  it('is the median of the recorded non-stalled runs at (pool, tier)', () => {
    const runs: RunSample[] = [
      run('codex', 'high', 10),
      run('codex', 'high', 30, 'failed'),
      run('codex', 'high', 14, 'quota'),
      run('codex', 'high', 1, 'stalled'),
      { ...run('codex', 'high', 2, 'canceled'), stalled: true },
      run('codex', 'low', 1),
      run('grok', 'high', 99),
    ];
    expect(estimateDuration({ runs, poolId: 'codex', tier: 'high' })).toEqual({
      minutes: 14,
      source: 'recorded',
      samples: 3,
    });
  });

  it('averages the two middle runs of an even count, and one run is enough', () => {
    expect(
      estimateDuration({ runs: [run('a', 'low', 2), run('a', 'low', 5)], poolId: 'a', tier: 'low' }).minutes,
    ).toBe(3.5);
    expect(estimateDuration({ runs: [run('a', 'low', 7)], poolId: 'a', tier: 'low' })).toEqual({
      minutes: 7,
      source: 'recorded',
      samples: 1,
    });
  });

  it.each([
    ['low', undefined, 2.5],
    ['medium', undefined, 5.67],
    ['high', undefined, 12],
    ['xhigh', undefined, 5.67],
    ['high', { high: 20 }, 20],
    ['low', { high: 20 }, 2.5],
  ])('bootstraps tier %s with settings %j to %d minutes', (tier, bootstrapMinutes, minutes) => {
    const runs = [run('a', tier, 1, 'stalled'), run('b', tier, 9)];
    expect(
      estimateDuration({ runs, poolId: 'a', tier, ...(bootstrapMinutes ? { bootstrapMinutes } : {}) }),
    ).toEqual({
      minutes,
      source: 'bootstrap',
      samples: 0,
    });
  });

  it('skips corrupt runs that end before they start', () => {
    const corrupt = { ...run('a', 'low', 5), endedAt: 0 };
    expect(estimateDuration({ runs: [corrupt], poolId: 'a', tier: 'low' }).source).toBe('bootstrap');
  });
});

describe('median', () => {
  it.each([
    [[], null],
    [[3], 3],
    [[9, 1, 5], 5],
    [[4, 1, 3, 2], 2.5],
  ])('%j → %s', (values, expected) => {
    expect(median(values)).toBe(expected);
  });
});

describe('scratch reuse and long histories', () => {
  it('never lets one estimate see the runs of the previous one', () => {
    const long = [5, 50, 51, 52, 53].map((m) => run('a', 'low', m));
    expect(estimateDuration({ runs: long, poolId: 'a', tier: 'low' }).minutes).toBe(51);
    const short = [run('b', 'low', 1), run('b', 'low', 3)];
    expect(estimateDuration({ runs: short, poolId: 'b', tier: 'low' })).toEqual({
      minutes: 2,
      source: 'recorded',
      samples: 2,
    });
    expect(estimateDuration({ runs: [], poolId: 'b', tier: 'low' }).source).toBe('bootstrap');
  });

  it('takes the median of a history longer than the insertion-sort limit', () => {
    const minutes = Array.from({ length: 41 }, (_, i) => (i * 37) % 41); // 0..40, shuffled
    const runs = minutes.map((m) => run('a', 'high', m));
    expect(estimateDuration({ runs, poolId: 'a', tier: 'high' })).toEqual({
      minutes: 20,
      source: 'recorded',
      samples: 41,
    });
    expect(median([...minutes, 41])).toBe(20.5);
  });

  it('fills a prefix without shortening the scratch array, and medianOfFirst reads only that prefix', () => {
    const scratch = [100, 100, 100, 100];
    const count = fillRecordedMinutes([run('a', 'low', 4), run('a', 'low', 2)], 'a', 'low', scratch);
    expect(count).toBe(2);
    expect(scratch).toEqual([4, 2, 100, 100]);
    expect(medianOfFirst(scratch, count)).toBe(3);
    expect(medianOfFirst(scratch, 0)).toBeNull();
    expect(recordedMinutes([run('a', 'low', 4), run('a', 'high', 2)], 'a', 'low')).toEqual([4]);
  });
});
