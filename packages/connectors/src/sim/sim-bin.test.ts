import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { PACKAGE_ROOT } from '../package-paths';

const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
};
const binFile = join(PACKAGE_ROOT, manifest.bin['bullswarm-sim']!);

describe('the bullswarm-sim bin', () => {
  // `pnpm install` links every bin of a workspace dependency before anything is built: a bin in
  // dist/ (never committed) made each install print "WARN Failed to create bin … ENOENT" and left
  // the link missing until a second install.
  it('is a committed file, so a fresh install links it before any build', () => {
    const tracked = spawnSync('git', ['ls-files', '--error-unmatch', binFile], {
      cwd: PACKAGE_ROOT,
      encoding: 'utf8',
    });
    expect(tracked.status, `${binFile} is not tracked by git: ${tracked.stderr}`).toBe(0);
  });

  it('runs the built CLI with its arguments and exit code', () => {
    const help = spawnSync(process.execPath, [binFile, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: bullswarm-sim /);
    const bad = spawnSync(process.execPath, [binFile, '--bogus'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('bullswarm-sim: unknown argument "--bogus"');
  });

  it('says how to build the CLI when dist/ is missing (exit 1)', () => {
    const root = mkdtempSync(join(tmpdir(), 'bullswarm-sim-bin-'));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(join(root, 'bin'));
    const copy = join(root, 'bin', 'bullswarm-sim.js');
    copyFileSync(binFile, copy);
    const result = spawnSync(process.execPath, [copy, '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `bullswarm-sim: ${join(root, 'dist', 'sim-cli.js')} is not built yet: run \`pnpm --filter @bullswarm/connectors build\`\n`,
    );
  });
});
