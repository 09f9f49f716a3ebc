import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import setupTmpGuard, { TEST_RUN_TMP_PREFIX } from '@bullswarm/test-support/tmp-guard';
import { afterEach, describe, expect, it } from 'vitest';

// The guard every package's vitest run starts with (tooling/test-support/src/tmp-guard.ts); it is
// tested here, in a package whose tests already depend on the test support.
const outer = process.env.TMPDIR;
afterEach(() => {
  process.exitCode = undefined; // the guard's teardown marks a failed run; this one is on purpose
  expect(process.env.TMPDIR).toBe(outer);
});

describe('the test run’s TMPDIR guard', () => {
  it('gives the run its own TMPDIR and removes it at the end when nothing was left', () => {
    const teardown = setupTmpGuard();
    const root = tmpdir();
    expect(root).not.toBe(outer);
    expect(root.startsWith(join(outer ?? '/tmp', TEST_RUN_TMP_PREFIX))).toBe(true);
    expect(process.env.TMP).toBe(root);
    // The shared CLI code cache is removed with it, silently.
    mkdirSync(join(root, 'bullswarm-cli-test-compile-cache'));
    teardown();
    expect(existsSync(root)).toBe(false);
    expect(process.exitCode).toBeUndefined();
  });

  it('fails the run naming what was left, grouped by prefix, and still removes it', () => {
    const teardown = setupTmpGuard();
    const root = tmpdir();
    for (const name of ['bullswarm-sim-cwd-Ab12Cd', 'bullswarm-sim-cwd-Ef34Gh', 'stray.txt']) {
      writeFileSync(join(root, name), '');
    }
    expect(() => teardown()).toThrow(
      'the tests left 3 temporary entries behind in their TMPDIR (removed now): bullswarm-sim-cwd-* ×2, stray.txt;',
    );
    expect(process.exitCode).toBe(1);
    expect(existsSync(root)).toBe(false);
  });

  it('removes the directory of an earlier run whose process is gone, never a live one', () => {
    const base = outer ?? '/tmp';
    const dead = join(base, `${TEST_RUN_TMP_PREFIX}2147483646-deadbeef`);
    const live = join(base, `${TEST_RUN_TMP_PREFIX}${process.ppid}-cafe0123`);
    mkdirSync(join(dead, 'left-by-a-killed-run'), { recursive: true });
    mkdirSync(live, { recursive: true });
    try {
      const teardown = setupTmpGuard();
      teardown();
      expect(existsSync(dead)).toBe(false);
      expect(readdirSync(base)).toContain(`${TEST_RUN_TMP_PREFIX}${process.ppid}-cafe0123`);
    } finally {
      for (const dir of [dead, live]) rmSync(dir, { recursive: true, force: true });
    }
  });
});
