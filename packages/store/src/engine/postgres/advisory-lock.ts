/** The first key of every bullswarm advisory lock ("bswm"), so bullswarm's locks never meet another application's. */
export const ADVISORY_LOCK_SPACE = 0x6273776d;

/**
 * The two-integer key of a named advisory lock (`pg_advisory_xact_lock(space, key)`): bullswarm's
 * lock space and the FNV-1a hash of the name as a signed 32-bit integer. Two names may share a key
 * (then they serialise together, which is safe, only slower).
 */
export function advisoryLockKey(name: string): [number, number] {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return [ADVISORY_LOCK_SPACE, hash | 0];
}
