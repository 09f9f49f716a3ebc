import { describe, expect, it } from 'vitest';
import { lastJsonObject } from './answer-json';
import { checkOutputSchema, type OutputSchema, validateOutput } from './output-schema';

const schema: OutputSchema = {
  type: 'object',
  required: ['verdict', 'findings'],
  additionalProperties: false,
  properties: {
    verdict: { type: 'string', enum: ['pass', 'fail'] },
    score: { type: 'integer', minimum: 0, maximum: 10 },
    findings: {
      type: 'array',
      maxItems: 3,
      items: {
        type: 'object',
        required: ['check'],
        properties: { check: { type: 'integer', minimum: 1 }, note: { type: 'string', minLength: 3 } },
      },
    },
    extra: { type: ['string', 'null'] },
  },
};

describe('checkOutputSchema', () => {
  it('accepts the supported subset', () => {
    expect(checkOutputSchema(schema)).toEqual([]);
  });

  it('names each problem with its JSON path', () => {
    expect(
      checkOutputSchema({
        type: 'object',
        properties: { a: { type: 'text' }, b: { oneOf: [] }, c: { minItems: -1 } },
        required: ['a', 'zz'],
        additionalProperties: 'no',
      }).map((p) => p.path),
    ).toEqual([
      '$.properties.a.type',
      '$.properties.b.oneOf',
      '$.properties.c.minItems',
      '$.required[1]',
      '$.additionalProperties',
    ]);
    expect(checkOutputSchema([])[0]?.path).toBe('$');
    expect(checkOutputSchema({ type: 'string' })[0]?.path).toBe('$.type');
  });
});

describe('validateOutput', () => {
  it('accepts a matching value', () => {
    expect(
      validateOutput(schema, { verdict: 'pass', findings: [{ check: 1, note: 'fine' }], extra: null }),
    ).toEqual([]);
  });

  it('reports every mismatch with its JSON path', () => {
    const problems = validateOutput(schema, {
      verdict: 'maybe',
      score: 11.5,
      findings: [{ note: 'x' }, { check: 0 }, { check: 2 }, { check: 3 }],
      other: 1,
    });
    expect(problems.map((p) => p.path)).toEqual([
      '$.verdict',
      '$.score',
      '$.findings',
      '$.findings[0].check',
      '$.findings[0].note',
      '$.findings[1].check',
      '$.other',
    ]);
    expect(problems[1]?.message).toBe('expected integer, got number 11.5');
    expect(problems[3]?.message).toBe('missing required property');
  });

  it('requires the root object', () => {
    expect(validateOutput(schema, [1])).toEqual([{ path: '$', message: 'expected object, got array' }]);
  });
});

describe('lastJsonObject', () => {
  it.each([
    ['bare', 'Result: {"a": 1}', { a: 1 }],
    ['fenced', 'Here:\n```json\n{"a": {"b": [1, "}"]}}\n```\nDone.', { a: { b: [1, '}'] } }],
    ['the last of several', '{"a":1} then {"a":2} and prose {not json}', { a: 2 }],
    ['outermost, not a nested one', 'x {"outer": {"inner": true}} y', { outer: { inner: true } }],
    ['none', 'no json here [1,2]', undefined],
    ['broken then valid', '{"a": } {"b": 2}', { b: 2 }],
  ])('%s', (_name, answer, expected) => {
    expect(lastJsonObject(answer)).toEqual(expected);
  });
});
