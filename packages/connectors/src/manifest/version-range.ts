/** A `major.minor.patch` version as three numbers. */
type Version = readonly [number, number, number];

const COMPARATOR = /^(>=|<=|>|<|=)?(\d+)\.(\d+)\.(\d+)$/;

/** The first `major.minor.patch` in a CLI's version output (`codex-cli 0.171.0` → `0.171.0`). */
export function findVersion(text: string): string | undefined {
  return /\b(\d+)\.(\d+)\.(\d+)\b/.exec(text)?.[0];
}

function parseVersion(text: string): Version | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Why `range` is not a version range (space-separated `>=1.2.3 <1.3.0`), or undefined when it is. */
export function checkVersionRange(range: string): string | undefined {
  const parts = range.trim().split(/\s+/);
  if (range.trim() === '') return 'expected a version range such as ">=0.171.0 <0.172.0"';
  const bad = parts.find((part) => !COMPARATOR.test(part));
  return bad === undefined
    ? undefined
    : `"${bad}" is not a comparator; expected a version range such as ">=0.171.0 <0.172.0"`;
}

/** Whether `version` (`0.171.0`) satisfies every comparator of `range` (`>=0.171.0 <0.172.0`). */
export function satisfiesVersionRange(version: string, range: string): boolean {
  const v = parseVersion(version);
  if (v === undefined || checkVersionRange(range) !== undefined) return false;
  return range
    .trim()
    .split(/\s+/)
    .every((part) => {
      const match = COMPARATOR.exec(part)!;
      const bound: Version = [Number(match[2]), Number(match[3]), Number(match[4])];
      const c = compare(v, bound);
      switch (match[1]) {
        case '>=':
          return c >= 0;
        case '<=':
          return c <= 0;
        case '>':
          return c > 0;
        case '<':
          return c < 0;
        default:
          return c === 0;
      }
    });
}
