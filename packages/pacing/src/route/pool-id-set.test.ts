import { describe, expect, it } from 'vitest';
import { HASHED_FROM, PoolIdSet } from './pool-id-set';

describe('PoolIdSet', () => {
  it('adds an id once and reports it held; another id is not held', () => {
    const set = new PoolIdSet();
    expect(set.add('codex')).toBe(true);
    expect(set.add('codex')).toBe(false);
    expect(set.has('codex')).toBe(true);
    expect(set.has('Codex')).toBe(false);
    expect(set.size).toBe(1);
  });

  it.each([
    ['its own hash table, from a size hint far too small (it grows many times)', HASHED_FROM],
    ['a plain Set, under its size hint', 1],
  ])('agrees with a Set<string> over 20,000 ids with many repeats: %s', (_label, hint) => {
    const set = new PoolIdSet(hint);
    const reference = new Set<string>();
    const added: boolean[] = [];
    const expected: boolean[] = [];
    let a = 12345;
    for (let i = 0; i < 20_000; i++) {
      a = (Math.imul(a, 1103515245) + 12345) >>> 0;
      // Short ids, ids sharing long prefixes, and non-ASCII code units.
      const id =
        i % 3 === 0 ? `pool-${a % 5000}` : i % 3 === 1 ? `x${'y'.repeat(a % 7)}${a % 900}` : `é${a % 300}😀`;
      added.push(set.add(id));
      expected.push(!reference.has(id));
      reference.add(id);
    }
    expect(added).toEqual(expected);
    expect(set.size).toBe(reference.size);
    expect([...reference].every((id) => set.has(id))).toBe(true);
    expect(set.has('pool-5000')).toBe(false);
  });

  it('tells apart ids whose code units differ only in order or by a lone surrogate', () => {
    const set = new PoolIdSet(HASHED_FROM);
    for (const id of ['ab', 'ba', '\uD83D', '\uDE00', '\uD83D\uDE00', 'a\u0301', '\u00E1', '', ' ']) {
      expect(set.add(id), JSON.stringify(id)).toBe(true);
    }
    expect(set.add('\uD83D\uDE00')).toBe(false);
  });

  it.each([
    ['its own hash table', HASHED_FROM],
    ['a plain Set', 1],
  ])('agrees with a Set<string> when the ids arrive in order, then out of order: %s', (_label, hint) => {
    // Ascending ids (compared only with the one before), then a repeat of the last, a repeat of an
    // early one, ids below and between the ones seen, and more ascending ids after that.
    const ascending = Array.from({ length: 600 }, (_, i) => `pool-${String(i * 3).padStart(5, '0')}`);
    const ids = [
      ...ascending,
      ascending[599]!,
      ascending[7]!,
      'pool-00001',
      'a',
      ascending[300]!,
      'pool-00002',
      'zz',
      'zz',
      'zzz',
      ascending[0]!,
    ];
    const set = new PoolIdSet(hint);
    const reference = new Set<string>();
    for (const [i, id] of ids.entries()) {
      if (i === 600) {
        // Still in order: has() answers from the ids in order.
        expect(ascending.every((seen) => set.has(seen))).toBe(true);
        expect(set.has('pool-00001')).toBe(false);
        expect(set.has('pool-99999')).toBe(false);
        expect(set.size).toBe(600);
      }
      expect(set.add(id), `${i}: ${id}`).toBe(!reference.has(id));
      reference.add(id);
    }
    expect(set.size).toBe(reference.size);
    expect([...reference].every((id) => set.has(id))).toBe(true);
    expect(set.has('pool-00004')).toBe(false);
  });

  it('takes an id equal to the one before as a repeat while in order', () => {
    const set = new PoolIdSet(HASHED_FROM);
    expect(set.add('a')).toBe(true);
    expect(set.add('b')).toBe(true);
    expect(set.add('b')).toBe(false);
    expect(set.add('c')).toBe(true);
    expect(set.size).toBe(3);
  });
});
