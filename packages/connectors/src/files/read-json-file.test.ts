import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonText, readJsonFile } from './read-json-file';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bullswarm-read-json-'));
  dirs.push(dir);
  return dir;
}

describe('parseJsonText', () => {
  it('parses JSON, a leading byte-order mark ignored', () => {
    expect(parseJsonText('\ufeff{"a": [1, true]}')).toEqual({ ok: true, value: { a: [1, true] } });
    expect(parseJsonText(Buffer.from('{"é": "ü"}'))).toEqual({ ok: true, value: { é: 'ü' } });
  });

  it('gives a syntax error its line and column, and never quotes the text', () => {
    const secret = `sk-live-${'q'.repeat(30)}`;
    const read = parseJsonText(`{\n  "token": "${secret}",\n  "n": }\n`);
    expect(read).toMatchObject({
      ok: false,
      reason: 'invalid-json',
      line: 3,
      column: 8,
      problem: 'is not valid JSON: expected a value, found "}" at line 3, column 8',
    });
    expect(JSON.stringify({ ...read, cause: undefined })).not.toContain(secret);
  });

  it('says a binary or non-UTF-8 file is not text, without echoing its bytes', () => {
    const elf = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x1b, 0x5b, 0x32, 0x4a]);
    expect(parseJsonText(elf)).toMatchObject({
      ok: false,
      reason: 'not-text',
      problem: 'is not a text file (binary data at byte 7)',
    });
    expect(parseJsonText(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))).toMatchObject({
      ok: false,
      reason: 'not-text',
      problem: 'is not a text file (it is not UTF-8)',
    });
  });

  it('a text nested deeper than the scanner can follow is still refused without the text', () => {
    const deep = `${'['.repeat(200_000)}x`;
    const read = parseJsonText(deep);
    expect(read).toMatchObject({ ok: false, reason: 'invalid-json' });
    expect(read.ok === false && read.problem.length).toBeLessThan(80);
  });
});

describe('readJsonFile', () => {
  it('names a missing file, a directory and an unreadable file by reason', () => {
    const dir = tempDir();
    expect(readJsonFile(join(dir, 'nope.json'))).toMatchObject({
      ok: false,
      reason: 'missing',
      code: 'ENOENT',
      problem: 'does not exist',
    });
    mkdirSync(join(dir, 'folder.json'));
    expect(readJsonFile(join(dir, 'folder.json'))).toMatchObject({
      ok: false,
      reason: 'unreadable',
      problem: 'is a directory, not a file',
    });
    const file = join(dir, 'plan.json');
    writeFileSync(file, '{"a": 1,}');
    expect(readJsonFile(file)).toMatchObject({ ok: false, reason: 'invalid-json', line: 1, column: 9 });
    writeFileSync(file, '{"a": 1}');
    expect(readJsonFile(file)).toEqual({ ok: true, value: { a: 1 } });
    if (process.getuid?.() !== 0) {
      chmodSync(file, 0o000);
      expect(readJsonFile(file)).toMatchObject({
        ok: false,
        reason: 'unreadable',
        problem: 'cannot be read (EACCES)',
      });
    }
  });
});
