import type { HomePaths, LabelConflict } from '@bullswarm/store';

/**
 * The one warning line (no newline) a command prints on stderr for a label the store ignores
 * ({@link LabelConflict}: a label equal to another pool's id): the file, the field, that the label
 * is ignored, and the commands that repair it. The store reports the conflict; the words and the
 * commands are the CLI's.
 */
export function labelConflictWarning(home: Pick<HomePaths, 'labelsPath'>, conflict: LabelConflict): string {
  return (
    `${home.labelsPath}: labels.${conflict.poolId}: label "${conflict.label}" equals the id of pool ${conflict.label}, ` +
    `so it is ignored (${conflict.poolId} shows as its id; a label is never another pool's id): ` +
    `run \`bullswarm pools label ${conflict.poolId} --clear\` or \`bullswarm pools label ${conflict.poolId} <other-label>\``
  );
}
