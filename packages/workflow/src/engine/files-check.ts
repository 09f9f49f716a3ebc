import type { UnitChanges } from './tree-tracker';

/**
 * The `files` verdict of a unit's changes: undefined when it changed only what its `files` allow,
 * else the why of its failure (what it changed outside, and who else ended in the same snapshot).
 */
export function filesViolation(changes: UnitChanges, files: readonly string[]): string | undefined {
  if (changes.outside.length === 0) return undefined;
  const list = changes.outside.join(', ');
  const shared =
    changes.endedWith.length === 0
      ? ''
      : ` (seen as ${changes.endedWith.join(', ')} also ended; the change may be theirs)`;
  return (
    (files.length === 0
      ? `declared no files but changed: ${list}`
      : `changed files outside its files (${files.join(', ')}): ${list}`) + shared
  );
}
