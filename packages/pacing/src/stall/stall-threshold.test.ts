import { describe, expect, it } from 'vitest';
import { run } from '../test-support/make-pool';
import type { RunSample } from '../types';
import { stallThresholdMinutes } from './stall-threshold';

const runs = (minutes: readonly number[], outcome: RunSample['outcome'] = 'ok') =>
  minutes.map((m) => run('opencode', 'medium', m, outcome));

describe('stallThresholdMinutes', () => {
  it.each([
    [
      'metered, whatever its runs',
      false,
      runs([1, 2, 3]),
      { minutes: 60, basis: 'metered-default', samples: 0 },
    ],
    ['free with no runs', true, [], { minutes: 60, basis: 'free-default', samples: 0 }],
    ['free with 2 runs', true, runs([8, 9]), { minutes: 60, basis: 'free-default', samples: 2 }],
    ['free with 3 runs: the p50', true, runs([8, 20, 9]), { minutes: 9, basis: 'p50', samples: 3 }],
    [
      'free with 4 runs: the mean of the middle two',
      true,
      runs([8, 20, 9, 12]),
      { minutes: 10.5, basis: 'p50', samples: 4 },
    ],
    ['free, p50 under the floor', true, runs([1, 2, 3]), { minutes: 5, basis: 'p50', samples: 3 }],
    [
      'free, stalled runs never count',
      true,
      [...runs([8, 9]), ...runs([1, 1, 1], 'stalled')],
      { minutes: 60, basis: 'free-default', samples: 2 },
    ],
    [
      'free, other tiers and pools never count',
      true,
      [...runs([8, 9]), run('opencode', 'high', 3), run('grok', 'medium', 3)],
      { minutes: 60, basis: 'free-default', samples: 2 },
    ],
  ])('%s', (_label, free, sample, expected) => {
    expect(stallThresholdMinutes({ free, runs: sample, poolId: 'opencode', tier: 'medium' })).toEqual(
      expected,
    );
  });
});
