/**
 * The pool ids one decision has seen, so a duplicate id is rejected (`validatePool`). It does what
 * a `Set<string>` would, faster over thousands of pools.
 *
 * While the ids arrive in ascending order (by UTF-16 code unit, as `<` compares strings) no id can
 * repeat an earlier one, so each is only compared with the one before it: one string comparison,
 * no hashing, and no table to allocate. Pools listed by id — what `bullswarm pools` and the
 * benchmarks pass — never leave that mode. The first id out of order moves every id seen so far
 * into a table, and from then on each id is looked up there:
 *
 * - from {@link HASHED_FROM} expected ids, an open-addressing table that keeps every id's 32-bit
 *   hash beside its index and compares two strings only when their hashes match (V8's own set
 *   compares a new id with the ids already in its bucket, reading each of those strings: a cache
 *   miss apiece over 10,000 pools);
 * - below that, a plain `Set` (cheaper to set up; its cache misses do not matter).
 *
 * Built for one decision and dropped with it.
 */
export class PoolIdSet {
  /** The ids added, in order (sized for `expected`, so no growing copies up to it). */
  private readonly ids: string[];
  private count = 0;
  /** Every id so far was greater than the one before it: nothing is hashed yet. */
  private ascending = true;
  private readonly hashed: boolean;
  /** Pairs of (index in `ids` + 1, hash); index 0 marks an empty bucket. */
  private table: Int32Array = NO_BUCKETS;
  private mask = 0;
  /** Below {@link HASHED_FROM} ids, once out of order: a plain `Set`. */
  private small: Set<string> | null = null;

  constructor(expected = 8) {
    this.hashed = expected >= HASHED_FROM;
    this.ids = new Array(expected);
    let buckets = 16;
    while (buckets < expected * 2) buckets *= 2;
    this.mask = buckets - 1;
  }

  /** Adds `id`; false (and nothing added) when the set already holds it. */
  add(id: string): boolean {
    if (this.ascending) {
      const count = this.count;
      if (count === 0 || this.ids[count - 1]! < id) {
        this.ids[count] = id;
        this.count = count + 1;
        return true;
      }
      this.leaveAscending();
    }
    const small = this.small;
    if (small !== null) {
      if (small.has(id)) return false;
      small.add(id);
      return true;
    }
    const hash = hashId(id);
    const bucket = this.find(id, hash);
    if (bucket < 0) return false;
    this.ids[this.count++] = id;
    this.table[bucket * 2] = this.count;
    this.table[bucket * 2 + 1] = hash;
    // At most half full, so probe runs stay short.
    if (this.count * 2 > this.mask + 1) this.grow();
    return true;
  }

  /** Whether the set holds `id`. */
  has(id: string): boolean {
    if (this.ascending) {
      // A binary search of the ascending ids.
      let lo = 0;
      let hi = this.count;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const at = this.ids[mid]!;
        if (at === id) return true;
        if (at < id) lo = mid + 1;
        else hi = mid;
      }
      return false;
    }
    if (this.small !== null) return this.small.has(id);
    return this.find(id, hashId(id)) < 0;
  }

  get size(): number {
    return this.small === null ? this.count : this.small.size;
  }

  /** The first id out of order: every id so far (all distinct) goes into the table. */
  private leaveAscending(): void {
    this.ascending = false;
    const count = this.count;
    if (!this.hashed) {
      const small = new Set<string>();
      for (let i = 0; i < count; i++) small.add(this.ids[i]!);
      this.small = small;
      return;
    }
    this.table = new Int32Array((this.mask + 1) * 2);
    this.count = 0;
    for (let i = 0; i < count; i++) {
      const id = this.ids[i]!;
      const hash = hashId(id);
      const bucket = this.find(id, hash);
      this.count++;
      this.table[bucket * 2] = this.count;
      this.table[bucket * 2 + 1] = hash;
      if (this.count * 2 > this.mask + 1) this.grow();
    }
  }

  /** The empty bucket where `id` would go, or -1 when the table holds it. */
  private find(id: string, hash: number): number {
    const table = this.table;
    const mask = this.mask;
    let bucket = hash & mask;
    for (;;) {
      const entry = table[bucket * 2]!;
      if (entry === 0) return bucket;
      if (table[bucket * 2 + 1] === hash && this.ids[entry - 1] === id) return -1;
      bucket = (bucket + 1) & mask;
    }
  }

  private grow(): void {
    const old = this.table;
    const buckets = (this.mask + 1) * 2;
    const table = new Int32Array(buckets * 2);
    const mask = buckets - 1;
    for (let i = 0; i < old.length; i += 2) {
      const entry = old[i]!;
      if (entry === 0) continue;
      const hash = old[i + 1]!;
      let bucket = hash & mask;
      while (table[bucket * 2] !== 0) bucket = (bucket + 1) & mask;
      table[bucket * 2] = entry;
      table[bucket * 2 + 1] = hash;
    }
    this.table = table;
    this.mask = mask;
  }
}

/** How many ids a set is made for before it hashes them itself. */
export const HASHED_FROM = 256;

const NO_BUCKETS = new Int32Array(0);

/** FNV-1a over the UTF-16 code units, then a murmur3 finaliser so the low bits are well mixed. */
function hashId(id: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
