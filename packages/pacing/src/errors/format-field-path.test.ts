import { describe, expect, it } from 'vitest';
import { formatFieldPath } from './format-field-path';

describe('formatFieldPath', () => {
  it.each([
    [[], ''],
    [['pools', 2, 'models', 'high'], 'pools[2].models.high'],
    [[0, 'id'], '[0].id'],
    [['env', 'MY VAR'], 'env["MY VAR"]'],
    [['modelProfiles', 'x-high', 0], 'modelProfiles.x-high[0]'],
    [['labels', 'claude-code:acme'], 'labels["claude-code:acme"]'],
    [[Symbol('s')], '["Symbol(s)"]'],
  ] as const)('%j → %s', (path, expected) => {
    expect(formatFieldPath(path as readonly PropertyKey[])).toBe(expected);
  });
});
