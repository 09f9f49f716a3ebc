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
    expect(result.problems[0]).toMatch(
      /^candidate .*candidate\.json is not valid JSON: expected a value, found the end of the file at line 1, column 7$/,
    );
    expect(result.problems[1]).toMatch(/^schema .*schema\.json: \$\.oneOf: unsupported keyword "oneOf"/);
    const missing = checkOutputSchemaFiles('nope.json', 'candidate.json', dir);
    expect(missing.code === 2 && missing.problems[0]).toMatch(/^schema .*nope\.json does not exist$/);
  });

  it('never pastes the file into the message: a long answer, a secret, a binary file', () => {
    const answer = `{\n  "summary": "the token is sk-live-${'x'.repeat(40)}",\n  "n": 2,,\n}`;
    const dir = files(schema, answer);
    const result = checkOutputSchemaFiles('schema.json', 'candidate.json', dir);
    expect(result.code === 2 && result.problems).toEqual([
      `candidate ${join(dir, 'candidate.json')} is not valid JSON: expected a double-quoted field name, found "," at line 3, column 10`,
    ]);
    writeFileSync(
      join(dir, 'candidate.json'),
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0x1b, 0x5b]),
    );
    const binary = checkOutputSchemaFiles('schema.json', 'candidate.json', dir);
    expect(binary.code === 2 && binary.problems).toEqual([
      `candidate ${join(dir, 'candidate.json')} is not a text file (binary data at byte 7)`,
    ]);
  });
});
