import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { homePaths } from '../home/home-paths';
import { spawnNode, supportScript, workerDistIndex } from '../test-support/spawn-node';
// @ts-expect-error plain ESM helper shared with the child process
import { buildStateVersion } from '../test-support/state-versions.mjs';
import { useTempDirs } from '../test-support/temp-dir';
import { readState, updateState } from './state-file';
import { stateFileSchema } from './state-file-schema';

const tempDir = useTempDirs();
const buildVersion = buildStateVersion as (n: number) => unknown;

/** The version number a state.json holds, after checking it is exactly that whole version. */
function wholeVersionOf(text: string): number {
  const state = stateFileSchema.parse(JSON.parse(text));
  const n = Number(state.pools[0]?.env?.SEQ);
  expect(state).toEqual(stateFileSchema.parse(buildVersion(n)));
  return n;
}

describe('state.json across processes', () => {
  it('kill -9 during writes always leaves a whole, valid, written version', async () => {
    const home = tempDir();
    const { statePath } = homePaths(home);
    let lastCompleted = 0;
    for (let kill = 0; kill < 8; kill++) {
      const writer = spawnNode(supportScript('state-writer.mjs'), [workerDistIndex, home]);
      let printed = '';
      // Let it complete at least one write, then kill it at a random moment of a later one.
      await new Promise<void>((resolve) => {
        writer.child.stdout?.on('data', (chunk: Buffer) => {
          printed += chunk.toString();
          if (printed.includes('\n')) resolve();
        });
      });
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
      writer.child.kill('SIGKILL');
      const result = await writer.done;
      expect(result.signal).toBe('SIGKILL');
      expect(result.stderr).toBe('');
      const completed = result.stdout.trim().split('\n').map(Number);
      const lastPrinted = completed.at(-1) as number;
      expect(lastPrinted).toBeGreaterThan(lastCompleted);

      // The file parses, validates, and is exactly one of the versions written: the last one the
      // writer reported, or the one it was renaming into place when killed.
      const onDisk = wholeVersionOf(readFileSync(statePath, 'utf8'));
      expect([lastPrinted, lastPrinted + 1]).toContain(onDisk);
      expect(readState(home).pools[0]?.env?.SEQ).toBe(String(onDisk));
      // The backup is whole and valid too: the version before the last write, or the current one
      // when the kill came after the backup was made but before the new version was renamed in.
      // (Version 1 replaced no file, so it left no backup.)
      if (onDisk > 1 || existsSync(`${statePath}.bak`)) {
        expect(wholeVersionOf(readFileSync(`${statePath}.bak`, 'utf8'))).toBeLessThanOrEqual(onDisk);
      }
      lastCompleted = onDisk;
    }
    // A new writer continues after the killed ones (no stuck lock) and sweeps their temp files.
    const final = await spawnNode(supportScript('state-writer.mjs'), [workerDistIndex, home, '1']).done;
    expect(final.code).toBe(0);
    expect(Number(final.stdout.trim())).toBe(lastCompleted + 1);
    expect(readdirSync(home).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 180_000);

  it('concurrent updateState calls from several processes never lose an update', async () => {
    const home = tempDir();
    const writers = 4;
    const each = 25;
    updateState(home, () => undefined);
    const results = await Promise.all(
      Array.from(
        { length: writers },
        (_, w) =>
          spawnNode(supportScript('state-appender.mjs'), [workerDistIndex, home, String(w), String(each)])
            .done,
      ),
    );
    for (const result of results) {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
    const ids = readState(home).pools.map((pool) => pool.id);
    expect(ids).toHaveLength(writers * each);
    const expected = new Set<string>();
    for (let w = 0; w < writers; w++) for (let i = 0; i < each; i++) expected.add(`w${w}:p${i}`);
    expect(new Set(ids)).toEqual(expected);
    expect(readdirSync(home).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 180_000);
});
