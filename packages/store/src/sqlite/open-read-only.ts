import { accessSync, constants, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkWriteFault } from '@bullswarm/connectors/internal';
import Database from 'better-sqlite3';

/**
 * Whether the store at `dbPath` can be opened for writing: the file and its directory (where SQLite
 * keeps `-wal` and `-shm`) are writable. A read-only file system says `EROFS` here even to root.
 */
export function canWriteStore(dbPath: string): boolean {
  try {
    checkWriteFault(dbPath); // test-only: an injected EROFS stands in for a read-only mount
    accessSync(dirname(dbPath), constants.W_OK);
    if (existsSync(dbPath)) accessSync(dbPath, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A database opened read-only, and what to remove when it is closed. */
export interface ReadOnlyDatabase {
  readonly db: Database.Database;
  /** Removes the private snapshot copy, if one was made. */
  readonly dispose: () => void;
}

/**
 * Opens a store that cannot be written (a read-only home or file system) for reading.
 *
 * SQLite reads a WAL database read-only only while its `-shm` exists or can be created; a store
 * closed cleanly has none, and on a read-only home none can be made. Then the database (and its
 * `-wal`, if any) is copied into a private temp directory (0700, under the OS temp dir) and the copy
 * is opened read-only — nothing can write a read-only home meanwhile, so the copy is what the home
 * holds. The copy is removed by `dispose` (and at process exit).
 */
export function openReadOnly(dbPath: string, timeout: number): ReadOnlyDatabase {
  try {
    const db = new Database(dbPath, { readonly: true, fileMustExist: true, timeout });
    try {
      db.prepare('SELECT count(*) FROM sqlite_master').get();
      return { db, dispose: () => {} };
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code !== 'SQLITE_CANTOPEN') throw error;
    }
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_CANTOPEN') throw error;
  }
  const dir = mkdtempSync(join(tmpdir(), 'bullswarm-readonly-store-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  try {
    const copy = join(dir, 'bullswarm.db');
    copyFileSync(dbPath, copy);
    if (existsSync(`${dbPath}-wal`)) copyFileSync(`${dbPath}-wal`, `${copy}-wal`);
    const db = new Database(copy, { readonly: true, fileMustExist: true, timeout });
    return {
      db,
      dispose: () => {
        process.removeListener('exit', remove);
        remove();
      },
    };
  } catch (error) {
    process.removeListener('exit', remove);
    remove();
    throw error;
  }
}
