import {
  closeSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAttemptFiles, formatAttemptFileName, nextAttemptNumber } from './attempt-files';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bullswarm-files-'));
  dirs.push(dir);
  return dir;
}

describe('attempt files', () => {
  it('are named out-<action>-attempt-<n>', () => {
    expect(formatAttemptFileName('run', 1)).toBe('out-run-attempt-1');
    expect(formatAttemptFileName('review-docs-2', 12)).toBe('out-review-docs-2-attempt-12');
  });

  it('number from one past the highest existing attempt of that action (stdout or stderr file)', () => {
    const dir = tempDir();
    expect(nextAttemptNumber(join(dir, 'missing'), 'run')).toBe(1);
    expect(nextAttemptNumber(dir, 'run')).toBe(1);
    writeFileSync(join(dir, 'out-run-attempt-1'), '');
    writeFileSync(join(dir, 'out-run-attempt-3.stderr'), '');
    writeFileSync(join(dir, 'out-run-x-attempt-9'), ''); // another action
    writeFileSync(join(dir, 'out-run-attempt-4.bak'), ''); // not an attempt file
    expect(nextAttemptNumber(dir, 'run')).toBe(4);
    expect(nextAttemptNumber(dir, 'run-x')).toBe(10);
    expect(nextAttemptNumber(dir, 'r.n')).toBe(1); // the action is matched literally
  });

  it('claim a number with an exclusive create, never over an existing file', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'out-run-attempt-2'), 'earlier');
    const first = createAttemptFiles(dir, 'run', 2);
    closeSync(first.outputFd);
    closeSync(first.stderrFd);
    expect(first.attempt).toBe(3);
    expect(readFileSync(join(dir, 'out-run-attempt-2'), 'utf8')).toBe('earlier');
    const claims = [createAttemptFiles(dir, 'run'), createAttemptFiles(dir, 'run')];
    for (const claim of claims) {
      closeSync(claim.outputFd);
      closeSync(claim.stderrFd);
    }
    expect(claims.map((c) => c.attempt)).toEqual([4, 5]);
    expect(claims[1]?.stderrFile).toBe(join(dir, 'out-run-attempt-5.stderr'));
  });

  it('number each claim as a fresh scan of the folder would, after changes by others too', () => {
    const dir = tempDir();
    const claim = (action: string) => {
      const files = createAttemptFiles(dir, action);
      closeSync(files.outputFd);
      closeSync(files.stderrFd);
      return files.attempt;
    };
    // Many actions in one folder (a fan-out): each claim is one past that action's highest.
    for (let item = 0; item < 50; item += 1) expect(claim(`each.${item}`)).toBe(1);
    expect(claim('each.7')).toBe(2);
    expect(claim('each.7')).toBe(3);
    // Another process writes a later attempt: the next claim goes past it.
    writeFileSync(join(dir, 'out-each.7-attempt-9.stderr'), '');
    expect(claim('each.7')).toBe(10);
    // The folder is emptied: numbering starts over, as it would in a new process.
    for (const name of readdirSync(dir)) unlinkSync(join(dir, name));
    expect(claim('each.7')).toBe(1);
    expect(claim('each.3')).toBe(1);
    expect(nextAttemptNumber(dir, 'each.7')).toBe(2);
  });
});
