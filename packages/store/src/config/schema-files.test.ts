import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { poolLabelsJsonSchema, stateJsonSchema } from './schema-files';

describe('shipped JSON Schemas', () => {
  it('state.schema.json is generated from the zod schema', async () => {
    await expect(stateJsonSchema()).toMatchFileSnapshot('../../state.schema.json');
  });

  it('pool-labels.schema.json is generated from the zod schema', async () => {
    await expect(poolLabelsJsonSchema()).toMatchFileSnapshot('../../pool-labels.schema.json');
  });

  it('describes the fields a hand editor needs', () => {
    const schema = JSON.parse(stateJsonSchema());
    expect(schema.required).toEqual(['version']);
    expect(schema.additionalProperties).toBe(false);
    const pool = schema.properties.pools.items;
    expect(pool.required).toEqual(['id', 'connector', 'addedAt']);
    expect(pool.properties.id.pattern).toBe('^[a-z0-9][a-z0-9-]*(:[A-Za-z0-9._-]+)?$');
    expect(pool.properties.meter.oneOf ?? pool.properties.meter.anyOf).toHaveLength(6);
    expect(schema.properties.config.properties.inflightPenaltyPct).toMatchObject({ default: 3, minimum: 0 });
  });

  it('ships both files in the package', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    for (const name of ['state.schema.json', 'pool-labels.schema.json']) {
      expect(manifest.files).toContain(name);
      expect(manifest.exports[`./${name}`]).toBe(`./${name}`);
    }
  });
});
