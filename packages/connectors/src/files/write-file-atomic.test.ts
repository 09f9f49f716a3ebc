import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../test-support/temp-dir';
import { removeStaleTempFiles, tempFileName, writeFileAtomic } from './write-file-atomic';

const tempDir = useTempDirs();

describe('writeFileAtomic', () => {
  it('writes a new file with the given mode and leaves no temp file', () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    writeFileAtomic(path, '{"a":1}\n', { mode: 0o640 });
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
    expect(statSync(path).mode & 0o777).toBe(0o640 & ~process.umask());
    expect(readdirSync(dir)).toEqual(['state.json']);
    writeFileAtomic(join(dir, 'private.json'), new Uint8Array([123, 125]));
    expect(statSync(join(dir, 'private.json')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'private.json'), 'utf8')).toBe('{}');
  });

  it('replaces the file and, with backup, keeps the previous version as <name>.bak', () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    writeFileAtomic(path, 'v1', { backup: true });
    expect(existsSync(`${path}.bak`)).toBe(false);
    writeFileAtomic(path, 'v2', { backup: true });
    writeFileAtomic(path, 'v3', { backup: true });
    expect(readFileSync(path, 'utf8')).toBe('v3');
    expect(readFileSync(`${path}.bak`, 'utf8')).toBe('v2');
    writeFileAtomic(path, 'v4');
    expect(readFileSync(`${path}.bak`, 'utf8')).toBe('v2');
    expect(readdirSync(dir).sort()).toEqual(['state.json', 'state.json.bak']);
  });

  it('names temp files .<name>.<pid>.<random>.tmp in the same directory', () => {
    const name = tempFileName('/x/y/state.json');
    expect(name).toMatch(new RegExp(`^/x/y/\\.state\\.json\\.${process.pid}\\.[0-9a-z]+\\.tmp$`));
    expect(tempFileName('/x/y/state.json')).not.toBe(name);
  });

  // The rename fails after the temp file was written: nothing of it may stay behind. (A permission
  // failure cannot be provoked here: the tests run as root, which writes anywhere.)
  it('fails (without leaving anything) when the target is a directory', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'state.json'));
    expect(() => writeFileAtomic(join(dir, 'state.json'), 'x')).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('throws ENOENT when the directory does not exist', () => {
    expect(() => writeFileAtomic(join(tempDir(), 'missing', 'state.json'), 'x')).toThrow(/ENOENT/);
  });
});

describe('removeStaleTempFiles', () => {
  it('removes temp files of dead writers only, for that file only', () => {
    const dir = tempDir();
    const target = join(dir, 'state.json');
    const names = [
      '.state.json.4194305.aaaaaa.tmp', // dead pid (above Linux's pid_max ceiling)
      `.state.json.${process.pid}.bbbbbb.tmp`, // ours: in progress
      `.state.json.${process.ppid}.cccccc.tmp`, // a live process's
      '.pool-labels.json.4194305.dddddd.tmp', // another file's
      'state.json',
    ];
    for (const name of names) writeFileSync(join(dir, name), 'x');
    expect(removeStaleTempFiles(target)).toEqual(['.state.json.4194305.aaaaaa.tmp']);
    expect(readdirSync(dir).sort()).toEqual(names.slice(1).sort());
  });
});

describe('writeFileAtomic after a kill between backup and rename', () => {
  it('leaves no temp link when the backup already is the same file', () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    writeFileAtomic(path, 'v1');
    // What a writer killed right after making the backup leaves: state.json.bak linked to state.json.
    linkSync(path, `${path}.bak`);
    writeFileAtomic(path, 'v2', { backup: true });
    expect(readFileSync(path, 'utf8')).toBe('v2');
    expect(readFileSync(`${path}.bak`, 'utf8')).toBe('v1');
    expect(readdirSync(dir).sort()).toEqual(['state.json', 'state.json.bak']);
  });
});
