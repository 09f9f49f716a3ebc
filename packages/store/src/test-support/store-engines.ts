import { join } from 'node:path';
import { inject } from 'vitest';
import type { StoreTarget } from '../engine/store-target';
import { createTestDatabase } from './pg-database';

/** One engine the store contract runs on. */
export interface EngineCase {
  readonly engine: 'sqlite' | 'postgres';
  /** False where no Postgres server is available (its tests are reported skipped). */
  readonly available: boolean;
  /** A fresh, empty store location for one test, and its clean-up. */
  fresh(tempDir: () => string): Promise<{ readonly target: StoreTarget; cleanup(): Promise<void> }>;
}

/** Both engines: SQLite always, Postgres when the run has a server (see postgres-setup.ts). */
export function storeEngines(): EngineCase[] {
  const pgUrl = inject('pgUrl');
  return [
    {
      engine: 'sqlite',
      available: true,
      fresh: async (tempDir) => ({
        target: { engine: 'sqlite', dbPath: join(tempDir(), 'home', 'bullswarm.db') },
        cleanup: async () => {},
      }),
    },
    {
      engine: 'postgres',
      available: pgUrl !== '',
      fresh: async () => {
        const database = await createTestDatabase(pgUrl);
        return {
          target: { engine: 'postgres', url: database.url, source: 'test' },
          cleanup: () => database.drop(),
        };
      },
    },
  ];
}
