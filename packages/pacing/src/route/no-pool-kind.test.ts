import { describe, expect, it } from 'vitest';
import type { PoolRejection } from '../types';
import { noPoolKindOf } from './no-pool-kind';

const r = (kind: PoolRejection['kind']): PoolRejection => ({ poolId: kind, kind, reason: kind });

describe('noPoolKindOf (why no pool: the one rule)', () => {
  it.each([
    [[], 'no-eligible-pool'],
    [[r('ineligible'), r('route')], 'no-eligible-pool'],
    [[r('spent')], 'quota'],
    [[r('draining'), r('ineligible')], 'quota'],
    [[r('spent'), r('excluded')], 'unavailable'],
    [[r('excluded')], 'unavailable'],
    [[r('excluded'), r('route')], 'unavailable'],
  ] as const)('%j → %s', (rejected, kind) => {
    expect(noPoolKindOf(rejected)).toBe(kind);
  });
});
