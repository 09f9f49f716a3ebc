import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bullswarm, tempDirs } from './support/cli';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('the V8 code cache of the bin', () => {
  it('is written by the first run of a command, used by the next, and rewritten when V8 rejects it', async () => {
    const cacheDir = join(dirs.make(), 'cache');
    const env = { BULLSWARM_CACHE_DIR: cacheDir, BULLSWARM_DEBUG_COMPILE_CACHE: '1' };
    const first = await bullswarm(['--version'], { env });
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toMatch(/^compile cache: miss .*\.default\.v8\n$/);
    const files = readdirSync(cacheDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^bullswarm-bullswarm\.cjs-.*\.default\.v8$/);

    const second = await bullswarm(['--version'], { env });
    expect(second.stderr).toBe(`compile cache: hit ${join(cacheDir, files[0]!)}\n`);
    expect(second.stdout).toBe(first.stdout);

    // Each command warms its own cache.
    const help = await bullswarm(['pools', '--help'], { env });
    expect(help.stderr).toMatch(/^compile cache: miss .*\.pools\.v8$/m);
    expect(readdirSync(cacheDir)).toHaveLength(2);

    writeFileSync(join(cacheDir, files[0]!), 'garbage');
    const rejected = await bullswarm(['--version'], { env });
    expect(rejected.exitCode).toBe(0);
    expect(rejected.stderr).toMatch(/^compile cache: miss /);
    expect((await bullswarm(['--version'], { env })).stderr).toMatch(/^compile cache: hit /);
  });

  it('BULLSWARM_COMPILE_CACHE=0 turns it off', async () => {
    const cacheDir = join(dirs.make(), 'cache');
    const result = await bullswarm(['--version'], {
      env: {
        BULLSWARM_CACHE_DIR: cacheDir,
        BULLSWARM_COMPILE_CACHE: '0',
        BULLSWARM_DEBUG_COMPILE_CACHE: '1',
      },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('compile cache: miss (off)\n');
    expect(() => readdirSync(cacheDir)).toThrow();
  });
});
