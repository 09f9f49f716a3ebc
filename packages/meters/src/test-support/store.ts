import { join } from 'node:path';
import { type AsyncBullswarmStore, openAsyncStore, type StoreTarget } from '@bullswarm/store';
import { afterEach, inject } from 'vitest';
// By path: meters has no dependency on @bullswarm/test-support (the vitest config reaches it the same way).
import { createTestDatabase } from '../../../../tooling/test-support/src/postgres-database';
import { tempDir } from './temp-dir';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Postgres server of this run, from tooling/test-support/src/postgres-setup.ts (empty: none). */
    pgUrl: string;
  }
}

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let engine: 'sqlite' | 'postgres' = 'sqlite';

/**
 * Runs the stores of this test file on `which`: a `<name>.postgres.test.ts` file calls it and then
 * imports `<name>.test.ts`, so the same suite runs on both engines (each test file has its own
 * module state).
 */
export function useTestStoreEngine(which: 'sqlite' | 'postgres'): void {
  engine = which;
}

/** A real store (SQLite in a fresh temp directory, or a fresh Postgres database), closed after the current test. */
export async function realStore(): Promise<{ store: AsyncBullswarmStore; dir: string }> {
  const dir = await tempDir('bullswarm-meters-store-');
  let target: StoreTarget = { engine: 'sqlite', dbPath: join(dir, 'bullswarm.db') };
  if (engine === 'postgres') {
    const database = await createTestDatabase(inject('pgUrl'));
    cleanups.push(() => database.drop());
    target = { engine: 'postgres', url: database.url, source: 'test' };
  }
  const store = await openAsyncStore({ target, hostId: 'meters-test' });
  cleanups.push(() => store.close());
  return { store, dir };
}

/** A clock the test moves by hand. */
export function manualClock(start: number): { (): number; set(at: number): void; advance(ms: number): void } {
  let now = start;
  const clock = () => now;
  clock.set = (at: number) => {
    now = at;
  };
  clock.advance = (ms: number) => {
    now += ms;
  };
  return clock;
}
