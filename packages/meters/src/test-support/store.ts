import { join } from 'node:path';
import { type EmbeddedBullswarmStore, openStore } from '@bullswarm/store';
import { afterEach } from 'vitest';
import { tempDir } from './temp-dir';

const opened: EmbeddedBullswarmStore[] = [];

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

/** A real SQLite store in a fresh temp directory, closed after the current test. */
export async function realStore(): Promise<{ store: EmbeddedBullswarmStore; dir: string }> {
  const dir = await tempDir('bullswarm-meters-store-');
  const store = openStore({ dbPath: join(dir, 'bullswarm.db') });
  opened.push(store);
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
