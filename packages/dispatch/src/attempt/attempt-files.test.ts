import { closeSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
});
