import { describe, expect, it } from 'vitest';
import { makePool, NOW } from '../test-support/make-pool';
import type { CandidateRow } from '../types';
import { buildCandidateRow } from './candidate-row';
import { classKey, sameClass } from './order-candidates';

const row: CandidateRow = buildCandidateRow(
  makePool('codex'),
  { lane: 'analyze', tier: 'medium', kind: 'single-run' },
  NOW,
  {},
  3,
);

describe('classKey and sameClass', () => {
  it('packs keys 1–6 with the preferred value as the smaller number', () => {
    expect(classKey({ ...row, free: false, urgent: false, assigned: false })).toBe(4 | 2 | 1);
    expect(classKey({ ...row, draining: true, free: true, urgent: true, assigned: true })).toBe(32);
    expect(classKey({ ...row, forecastOverLimit: true, free: true, urgent: true, assigned: true })).toBe(16);
    expect(classKey({ ...row, nearFiveHourPenalty: true, free: true, urgent: true, assigned: true })).toBe(8);
  });

  it('sameClass compares keys 1–5 and ignores key 6 (assigned)', () => {
    expect(sameClass(row, { ...row, assigned: !row.assigned })).toBe(true);
    expect(sameClass(row, { ...row, effectiveSurplus: row.effectiveSurplus + 50 })).toBe(true);
    for (const key of ['draining', 'forecastOverLimit', 'nearFiveHourPenalty', 'free', 'urgent'] as const) {
      expect(sameClass(row, { ...row, [key]: !row[key] }), key).toBe(false);
    }
  });
});
