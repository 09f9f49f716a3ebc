/**
 * The pool ids one decision has seen, so a duplicate id is rejected (`validatePool`). It does what
 * a `Set<string>` would, faster over thousands of pools: V8's set compares a new id with the ids
 * already in its bucket, reading each of those strings (a cache miss apiece over 10,000 pools),
 * while this open-addressing table keeps every id's 32-bit hash beside its index and compares two
 * strings only when their hashes match. Built for one decision and dropped with it.
 */
export class PoolIdSet {
  /** The ids added, in order (sized for `expected`, so no growing copies up to it). */
  private readonly ids: string[];
  private count = 0;
  /** Pairs of (index in `ids` + 1, hash); index 0 marks an empty bucket. */
  private table: Int32Array;
  private mask: number;

  /** Below {@link HASHED_FROM} ids, a plain `Set` (cheaper to set up; its cache misses do not matter). */
  private readonly small: Set<string> | null;

  constructor(expected = 8) {
    let buckets = 16;
    while (buckets < expected * 2) buckets *= 2;
    const hashed = expected >= HASHED_FROM;
    this.small = hashed ? null : new Set();
    this.table = hashed ? new Int32Array(buckets * 2) : NO_BUCKETS;
    this.mask = buckets - 1;
    this.ids = new Array(hashed ? expected : 0);
  }

  /** Adds `id`; false (and nothing added) when the set already holds it. */
  add(id: string): boolean {
    const small = this.small;
    if (small !== null) {
      if (small.has(id)) return false;
      small.add(id);
      return true;
    }
    const hash = hashId(id);
    const table = this.table;
    const mask = this.mask;
    let bucket = hash & mask;
    for (;;) {
      const entry = table[bucket * 2]!;
      if (entry === 0) break;
      if (table[bucket * 2 + 1] === hash && this.ids[entry - 1] === id) return false;
      bucket = (bucket + 1) & mask;
    }
    this.ids[this.count++] = id;
    table[bucket * 2] = this.count;
    table[bucket * 2 + 1] = hash;
    // At most half full, so probe runs stay short.
    if (this.count * 2 > mask + 1) this.grow();
    return true;
  }

  /** Whether the set holds `id`. */
  has(id: string): boolean {
    if (this.small !== null) return this.small.has(id);
    const hash = hashId(id);
    const table = this.table;
    let bucket = hash & this.mask;
    for (;;) {
      const entry = table[bucket * 2]!;
      if (entry === 0) return false;
      if (table[bucket * 2 + 1] === hash && this.ids[entry - 1] === id) return true;
      bucket = (bucket + 1) & this.mask;
    }
  }

  get size(): number {
    return this.small === null ? this.count : this.small.size;
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
