import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { exampleValue, schemaAnswerBlock, schemaFileOf } from './sim-schema-answer';

/** The sentence the workflow engine ends a schema-bound prompt with (packages/workflow step-prompt.ts). */
const instruction = (file: string) =>
  `Review it.\n\nYour final answer must be one JSON object that matches the JSON Schema in ${file}. Before you reply, write your candidate object to /c.json and run:\n\n    bullswarm check-output-schema ${file} /c.json`;

describe('the sim answers a schema-bound prompt with the smallest object its schema accepts', () => {
  it('finds the schema file the prompt names', () => {
    expect(schemaFileOf(instruction('/home/x/schemas/list.schema.json'))).toBe(
      '/home/x/schemas/list.schema.json',
    );
    expect(schemaFileOf('Explain the parser')).toBeUndefined();
  });

  it('builds required properties, one array item, bounded strings and numbers, the first enum value', () => {
    expect(
      exampleValue({
        type: 'object',
        required: ['files', 'verdict', 'n', 'ok', 'tag'],
        properties: {
          files: { type: 'array', maxItems: 500, items: { type: 'string', minLength: 1 } },
          verdict: { enum: ['pass', 'fail'] },
          n: { type: 'integer', minimum: 2, maximum: 3 },
          ok: { type: 'boolean' },
          tag: { type: ['null', 'string'], minLength: 5, maxLength: 6 },
          optional: { type: 'string' },
        },
      }),
    ).toEqual({ files: ['sim'], verdict: 'pass', n: 2, ok: true, tag: 'simxx' });
    expect(exampleValue({ type: 'array', minItems: 3, items: { type: 'number' } })).toEqual([1, 1, 1]);
    expect(exampleValue({ type: 'array', maxItems: 0 })).toEqual([]);
    expect(exampleValue({ type: 'number', maximum: -4 })).toBe(-4);
  });

  it('a fenced JSON block for a readable schema; nothing for a missing or broken one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bullswarm-sim-schema-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const schema = join(dir, 'review.schema.json');
    writeFileSync(
      schema,
      JSON.stringify({
        type: 'object',
        required: ['file', 'findings'],
        properties: {
          file: { type: 'string' },
          findings: {
            type: 'array',
            items: {
              type: 'object',
              required: ['check', 'note'],
              properties: { check: { type: 'integer', minimum: 1, maximum: 3 }, note: { type: 'string' } },
            },
          },
        },
      }),
    );
    expect(schemaAnswerBlock(instruction(schema))).toBe(
      '```json\n{"file":"sim","findings":[{"check":1,"note":"sim"}]}\n```',
    );
    expect(schemaAnswerBlock(instruction(join(dir, 'gone.json')))).toBeUndefined();
    writeFileSync(schema, '{"type": ');
    expect(schemaAnswerBlock(instruction(schema))).toBeUndefined();
  });
});
