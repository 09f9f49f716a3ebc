import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnNode, supportScript, workerDistIndex } from '../test-support/spawn-node';
import { useTempDirs } from '../test-support/temp-dir';

const tempDir = useTempDirs();

const WORKERS = 6;
const ROUNDS = 40;

describe('creating a new database while other processes open it (real processes)', () => {
  it(`${WORKERS} processes × ${ROUNDS} rounds of opening one missing bullswarm.db at once: no empty-database warning, no error, no temp file left`, async () => {
    const dir = tempDir();
    const workers = Array.from({ length: WORKERS }, (_, index) =>
      spawnNode(supportScript('open-race-worker.mjs'), [
        workerDistIndex,
        dir,
        `w${index}`,
        String(WORKERS),
        String(ROUNDS),
      ]),
    );
    const results = await Promise.all(workers.map((worker) => worker.done));
    for (const result of results) {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout.trim()) as { warnings: string[]; errors: string[] };
      expect(report.errors).toEqual([]);
      expect(report.warnings).toEqual([]);
    }
    for (let round = 0; round < ROUNDS; round++) {
      // bullswarm.db-wal/-shm may stay (two last closes at once); a temp database may not.
      const left = readdirSync(join(dir, `round-${round}`)).filter((name) => name.includes('.tmp'));
      expect(left, `round ${round}`).toEqual([]);
    }
  }, 180_000);
});
