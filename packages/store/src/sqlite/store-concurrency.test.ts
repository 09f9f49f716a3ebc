import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnNode, supportScript, workerDistIndex } from '../test-support/spawn-node';
import { useTempDirs } from '../test-support/temp-dir';
import { coreMigrations } from './core-migrations';
import { type EmbeddedBullswarmStore, openStore } from './open-store';

const tempDir = useTempDirs();
let store: EmbeddedBullswarmStore | undefined;
afterEach(() => store?.close());

interface WorkerReport {
  workerId: string;
  recorded: number;
  released: number;
  appended: number;
  errors: string[];
}

const WORKERS = 8;
const CYCLES = 250;

describe('store under concurrency (real processes, one database)', () => {
  it(`${WORKERS} processes × ${CYCLES} record/read/append/release cycles lose and duplicate nothing`, async () => {
    // A fresh database: the workers also race to create it and apply the schema.
    const dbPath = join(tempDir(), 'home', 'bullswarm.db');
    const workers = Array.from({ length: WORKERS }, (_, index) =>
      spawnNode(supportScript('ledger-worker.mjs'), [workerDistIndex, dbPath, `w${index}`, String(CYCLES)]),
    );
    const results = await Promise.all(workers.map((worker) => worker.done));
    const reports = results.map((result) => {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout.trim()) as WorkerReport;
    });
    for (const report of reports) {
      expect(report.errors).toEqual([]);
      expect(report).toMatchObject({ recorded: CYCLES, released: CYCLES, appended: CYCLES });
    }

    store = openStore({ dbPath });
    const runs = store.runs.list();
    expect(runs).toHaveLength(WORKERS * CYCLES);
    const expected = new Set<string>();
    for (let w = 0; w < WORKERS; w++) for (let i = 0; i < CYCLES; i++) expected.add(`w${w}-${i}`);
    expect(new Set(runs.map((run) => run.id))).toEqual(expected);
    expect(store.ledger.list()).toEqual([]);
    const tracked = store.database
      .prepare('SELECT namespace, version FROM schema_migrations ORDER BY version')
      .all();
    expect(tracked).toEqual(
      coreMigrations.migrations.map((_, index) => ({ namespace: 'store', version: index + 1 })),
    );
  }, 180_000);
});
