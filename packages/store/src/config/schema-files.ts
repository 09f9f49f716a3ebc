import { z } from 'zod';
import { poolLabelsFileSchema } from './pool-labels-schema';
import { stateFileSchema } from './state-file-schema';

/**
 * A schema file with its `$id`: where it is published (this package's tarball on unpkg, by major
 * version; docs/releasing.md), so a state.json or pool-labels.json can name it in `$schema`.
 */
function toFileSchema(schema: z.ZodType, file: string, title: string, description: string): string {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' });
  const $id = `https://unpkg.com/@bullswarm/store@0/${file}`;
  return `${JSON.stringify({ $schema: json.$schema, $id, ...json, title, description }, null, 2)}\n`;
}

/**
 * The JSON Schema of state.json, as shipped in `@bullswarm/store/state.schema.json` (for editors;
 * bullswarm itself validates with the zod schema, which adds the cross-field rules: unique pool
 * ids, ids agreeing with connector and account, assignments naming configured pools).
 */
export function stateJsonSchema(): string {
  return toFileSchema(
    stateFileSchema,
    'state.schema.json',
    'bullswarm state.json',
    'Pools, effort-tier assignments and home config of one bullswarm home ($BULLSWARM_HOME/state.json).',
  );
}

/** The JSON Schema of pool-labels.json, as shipped in `@bullswarm/store/pool-labels.schema.json`. */
export function poolLabelsJsonSchema(): string {
  return toFileSchema(
    poolLabelsFileSchema,
    'pool-labels.schema.json',
    'bullswarm pool-labels.json',
    'Display labels of pools by pool id ($BULLSWARM_HOME/pool-labels.json).',
  );
}
