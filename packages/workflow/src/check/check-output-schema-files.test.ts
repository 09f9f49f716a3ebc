import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkOutputSchemaFiles } from './check-output-schema-files';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function files(schema: string, candidate: string) {
  const dir = mkdtempSync(join(tmpdir(), 'wf-check-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'schema.json'), schema);
  writeFileSync(join(dir, 'candidate.json'), candidate);
  return dir;
}

const schema = JSON.stringify({
  type: 'object',
  required: ['n'],
  properties: { n: { type: 'integer', minimum: 1 } },
});

describe('checkOutputSchemaFiles', () => {
  it('0 for a matching candidate', () => {
    const dir = files(schema, '{"n": 2}');
    expect(checkOutputSchemaFiles('schema.json', 'candidate.json', dir).code).toBe(0);
  });

  it('1 with every mismatch and its path', () => {
    const dir = files(schema, '{"n": 0.5}');
    const result = checkOutputSchemaFiles('schema.json', 'candidate.json', dir);
    expect(result).toMatchObject({
      code: 1,
      errors: [{ path: '$.n', message: 'expected integer, got number 0.5' }],
    });
  });

  it('2 for a missing file, bad JSON or a schema outside the subset', () => {
    const dir = files('{"type": "object", "oneOf": []}', '{"n": ');
    const result = checkOutputSchemaFiles('schema.json', 'candidate.json', dir);
    expect(result.code).toBe(2);
    if (result.code !== 2) return;
    expect(result.problems[0]).toMatch(/^candidate .*candidate\.json: not valid JSON/);
    expect(result.problems[1]).toMatch(/^schema .*schema\.json: \$\.oneOf: unsupported keyword "oneOf"/);
    const missing = checkOutputSchemaFiles('nope.json', 'candidate.json', dir);
    expect(missing.code === 2 && missing.problems[0]).toMatch(/^schema .*nope\.json: no such file$/);
  });
});
