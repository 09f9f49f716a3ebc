import { z } from 'zod';
import { LABEL_PATTERN, POOL_ID_PATTERN } from './patterns';

/**
 * `$BULLSWARM_HOME/pool-labels.json`, version 1: display labels by pool id.
 *
 * The file itself guarantees what it can see alone: keys are pool ids, labels have no whitespace,
 * and no two pools share a label. A label equal to another pool's id is refused when it is set
 * (`setLabel`, `pools add`, `setup`) but does not make the file invalid: whether a key is a pool
 * depends on state.json, and a label found equal to a configured pool's id (a hand edit) is
 * ignored with a warning (`usableLabels`, `findLabelConflicts`) rather than locking the home.
 */
export const poolLabelsFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    version: z.literal(1),
    labels: z
      .record(
        z.string().regex(POOL_ID_PATTERN, 'must be a pool id: connector or connector:account'),
        z.string().regex(LABEL_PATTERN, 'must be a label with no spaces or control characters'),
      )
      .default({}),
  })
  .superRefine((file, ctx) => {
    const owner = new Map<string, string>();
    for (const [poolId, label] of Object.entries(file.labels)) {
      const other = owner.get(label);
      if (other !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['labels', poolId],
          message: `label "${label}" is also the label of ${other}; labels are unique`,
        });
      }
      owner.set(label, poolId);
    }
  });

export type PoolLabelsFile = z.output<typeof poolLabelsFileSchema>;

/** The labels of a home with no pool-labels.json yet. */
export function emptyLabels(): PoolLabelsFile {
  return { version: 1, labels: {} };
}
