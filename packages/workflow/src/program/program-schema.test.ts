import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { programJsonSchema } from './program-schema';
import { validateProgram } from './validate-program';

describe('workflow-program.schema.json', () => {
  it('is generated from the zod schema (file snapshot)', async () => {
    await expect(programJsonSchema()).toMatchFileSnapshot('../../workflow-program.schema.json');
  });

  it('describes the fields a program uses', () => {
    const schema = JSON.parse(programJsonSchema()) as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['$schema', 'schemaVersion', 'inputs', 'settings', 'steps']),
    );
    expect(schema.required).toEqual(['schemaVersion', 'steps']);
  });

  it('validates the shipped examples', () => {
    for (const name of ['docs-write-review.json', 'review-changed-files.json']) {
      const url = new URL(`../../../../examples/workflows/${name}`, import.meta.url);
      const result = validateProgram(JSON.parse(readFileSync(url, 'utf8')), {
        programDir: new URL('.', url).pathname,
      });
      expect(result.problems, name).toEqual([]);
    }
  });
});
