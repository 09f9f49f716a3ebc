import { describe, expect, it } from 'vitest';
import { describeValue } from './describe-value';

describe('describeValue', () => {
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  it.each([
    ['weekly', '"weekly"'],
    [42, '42'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [false, 'false'],
    [null, 'null'],
    [undefined, 'undefined'],
    [{ kind: 'weekly', usedPct: 3 }, '{"kind":"weekly","usedPct":3}'],
    [[1, 'a'], '[1,"a"]'],
    [circular, 'object'],
    [() => 1, 'function'],
    [10n, 'bigint'],
  ])('%s → %s', (value, expected) => {
    expect(describeValue(value)).toBe(expected);
  });
});
