import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WRITE_FAULT_VARIABLE } from '@bullswarm/connectors/internal';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreFaultError } from '../errors/store-fault-error';
import type { RunRecord } from '../store-types';
import { catchError } from '../test-support/catch-error';
import { useTempDirs } from '../test-support/temp-dir';
import { type EmbeddedBullswarmStore, openStore, openStoreIfExists } from './open-store';

const tempDir = useTempDirs();
const opened: EmbeddedBullswarmStore[] = [];
const mounts: string[] = [];
afterEach(() => {
  delete process.env[WRITE_FAULT_VARIABLE];
  for (const store of opened.splice(0)) store.close();
  for (const mount of mounts.splice(0).reverse()) spawnSync('umount', [mount]);
});

function track(store: EmbeddedBullswarmStore): EmbeddedBullswarmStore {
  opened.push(store);
  return store;
}

const run = (id: string): RunRecord => ({
  id,
  poolId: 'p',
  tier: 'medium',
  lane: 'build',
  action: `run-${id}-${'x'.repeat(200)}`,
  startedAt: 1,
  endedAt: 2,
  stalled: false,
  outcome: 'ok',
  workerMinutes: 1,
});

/**
 * A small tmpfs at a fresh directory, when this process may mount (root, outside a restricted
 * container); undefined otherwise. Tests then fall back to another way of making the same fault.
 */
function tryMountTmpfs(sizeKb: number): string | undefined {
  // BULLSWARM_TEST_NO_MOUNT=1 runs the fallbacks here too (what CI without mount rights runs).
  if (process.env.BULLSWARM_TEST_NO_MOUNT === '1') return undefined;
  const dir = join(tempDir(), 'mnt');
  mkdirSync(dir);
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir], {
    stdio: 'ignore',
  });
  if (result.status !== 0) return undefined;
  mounts.push(dir);
  return dir;
}

describe('the store on a home it cannot write', () => {
  it('opens read-only: reads work (dead ledger entries left out), caches are skipped, a write names the database and exits 2', () => {
    const mount = tryMountTmpfs(8192);
    const home = join(mount ?? tempDir(), 'home');
    const dbPath = join(home, 'bullswarm.db');
    const writer = openStore({ dbPath });
    writer.runs.append(run('kept'));
    // An entry of a dispatcher that is gone (pid above pid_max): a read-only list must leave it out.
    writer.ledger.record({ id: 'dead', poolId: 'p', action: 'a', startedAt: 1, pid: 4_194_305 });
    writer.database.prepare("UPDATE inflight SET pid_start_time = '1' WHERE id = 'dead'").run();
    writer.close();
    if (mount !== undefined) execFileSync('mount', ['-o', 'remount,ro', mount]);
    else process.env[WRITE_FAULT_VARIABLE] = 'EROFS:bullswarm.db'; // no mount here: the injected read-only home

    for (const open of [openStoreIfExists, openStore]) {
      const store = track(open({ dbPath }) as EmbeddedBullswarmStore);
      expect(store.readOnly).toBe(true);
      expect(store.runs.list().map((r) => r.id)).toEqual(['kept']);
      expect(store.ledger.list()).toEqual([]);
      store.meters.setCache({ poolId: 'p', windows: [], readAt: 5, source: 'test', failures: 0 });
      store.probes.set({ poolId: 'p', model: 'm', ok: true, checkedAt: 5 });
      const error = catchError(() => store.runs.append(run('new'))) as StoreFaultError;
      expect(StoreFaultError.isInstance(error)).toBe(true);
      expect(error.fault).toBe('input');
      expect(error.message).toContain(
        `the bullswarm store ${dbPath} cannot be written (SQLITE_READONLY, at runs.append)`,
      );
      expect(catchError(() => store.transaction(() => 1))).toBeInstanceOf(StoreFaultError);
      store.close();
    }
    if (mount !== undefined) expect(readdirSync(home).sort()).toEqual(['bullswarm.db']);
    // The private snapshot a read-only WAL store needs is gone after close.
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('bullswarm-readonly-store-'))).toEqual([]);
  });
});

describe('faults while the store works', () => {
  it('a full disk is SQLITE_FULL named as such (exit 1), and what was written is kept', () => {
    const mount = tryMountTmpfs(1024);
    const dbPath = join(mount ?? tempDir(), 'home', 'bullswarm.db');
    const store = track(openStore({ dbPath }));
    store.runs.append(run('before'));
    if (mount !== undefined) {
      // Fill the file system, leaving the store no room to grow.
      const fd = openSync(join(mount, 'filler'), 'w');
      const block = Buffer.alloc(64 * 1024);
      try {
        for (;;) writeSync(fd, block);
      } catch {
        // ENOSPC: full
      } finally {
        closeSync(fd);
      }
    } else {
      // No mount here: SQLite's own page limit gives the same SQLITE_FULL.
      const pages = store.database.pragma('page_count', { simple: true }) as number;
      store.database.pragma(`max_page_count = ${pages}`);
    }
    let error: unknown;
    for (let i = 0; i < 5000 && error === undefined; i++) {
      try {
        store.runs.append(run(`fill-${i}`));
      } catch (caught) {
        error = caught;
      }
    }
    expect(StoreFaultError.isInstance(error), String(error)).toBe(true);
    const fault = error as StoreFaultError;
    expect(fault.code).toMatch(/^SQLITE_FULL/);
    expect(fault.fault).toBe('failure');
    expect(fault.message).toContain(`the bullswarm store ${dbPath} cannot grow: its disk is full`);
    expect(store.runs.list().some((r) => r.id === 'before')).toBe(true);
  });

  it('a page corrupted after the store was opened is named as damage, not a bug', () => {
    const dbPath = join(tempDir(), 'home', 'bullswarm.db');
    const store = track(openStore({ dbPath }));
    for (let i = 0; i < 300; i++) store.runs.append(run(`r${i}`));
    store.database.pragma('wal_checkpoint(TRUNCATE)');
    // Another program overwrites every page but the header while the store is open…
    const fd = openSync(dbPath, 'r+');
    const size = fstatSync(fd).size;
    const junk = Buffer.alloc(size - 4096, 0x5a);
    writeSync(fd, junk, 0, junk.length, 4096);
    closeSync(fd);
    // …and another process writes the header, so this one reads the pages again.
    const other = new Database(dbPath);
    other.pragma('user_version = 7');
    other.close();
    const error = catchError(() => store.runs.list());
    expect(StoreFaultError.isInstance(error), String(error)).toBe(true);
    const fault = error as StoreFaultError;
    expect(fault.code).toMatch(/^SQLITE_(CORRUPT|NOTADB)/);
    expect(fault.fault).toBe('failure');
    expect(fault.message).toContain(`the bullswarm store ${dbPath} is damaged`);
    expect(fault.message).toContain('move it aside');
  });
});
