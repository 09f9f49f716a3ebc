import { closeSync, existsSync, linkSync, openSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fsyncDirectory, isPidAlive, tempFileName } from '@bullswarm/connectors/internal';
import Database from 'better-sqlite3';

/** What SQLite keeps beside a database file (a temp database's leftovers have them too). */
const SIDE_FILES = ['', '-wal', '-shm', '-journal'] as const;

/** Link errors of file systems without hard links (then the temp database is renamed into place). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Bring a missing database file into being whole, so that bullswarm never leaves a 0-byte
 * `bullswarm.db` of its own making: a process that opens the file while another is creating it
 * finds either no file or a complete, migrated database — and a 0-byte file can only be one whose
 * content was lost (a truncated copy), which `openStore` then says on stderr.
 *
 * The new database is made as a temp file in the same directory (`.bullswarm.db.<pid>.<random>.tmp`,
 * created 0600 so its `-wal`/`-shm`, which SQLite creates with the database's mode, are private
 * too), `prepare` (WAL journaling, the migrations) runs on it, it is closed (SQLite checkpoints
 * and fsyncs it) and hard-linked to `dbPath`. `link()` never replaces an existing file: when
 * several processes create at once, exactly one link wins and the others discard theirs and open
 * the winner's. On a file system without hard links the temp database is renamed into place only
 * if `dbPath` is still missing just before (a narrow window in which a concurrent creator's new,
 * still empty database could be replaced by an equally new one).
 *
 * Temp databases left by creators that died mid-way (their pid is gone) are removed first.
 */
export function createDatabaseFile(
  dbPath: string,
  prepare: (db: Database.Database) => void,
  timeoutMs: number,
): void {
  if (existsSync(dbPath)) return;
  removeStaleTempDatabases(dbPath);
  const temp = tempFileName(dbPath);
  closeSync(openSync(temp, 'wx', 0o600));
  try {
    const db = new Database(temp, { timeout: timeoutMs });
    try {
      prepare(db);
    } finally {
      db.close();
    }
    try {
      linkSync(temp, dbPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') return; // another process created it first: open theirs
      if (!NO_HARD_LINKS.has(code)) throw error;
      if (existsSync(dbPath)) return;
      renameSync(temp, dbPath);
    }
    fsyncDirectory(dirname(dbPath));
  } finally {
    for (const suffix of SIDE_FILES) unlinkQuietly(`${temp}${suffix}`);
  }
}

/** Remove `.bullswarm.db.<pid>.<random>.tmp[-wal|-shm|-journal]` of creators no longer alive. */
function removeStaleTempDatabases(dbPath: string): void {
  const directory = dirname(dbPath);
  const prefix = `.${basename(dbPath)}.`;
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !SIDE_FILES.some((suffix) => name.endsWith(`.tmp${suffix}`))) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && !isPidAlive(pid))
      unlinkQuietly(join(directory, name));
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
