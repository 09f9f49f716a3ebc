import {
  closeSync,
  copyFileSync,
  fsyncSync,
  linkSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isPidAlive } from '../process/process-liveness';
import { asFileWriteError } from './file-write-error';
import { checkWriteFault } from './write-fault';

/**
 * The one atomic file writer of bullswarm (store, meters, connectors, the workflow state writer
 * and the CLI's code cache all write through it): a temp file in the target's own directory, fsync,
 * rename over the target, fsync of the directory. A reader — or a crash at any moment — sees the
 * previous content or the new content, never a mix.
 */
export interface WriteFileAtomicOptions {
  /** File mode of the new file (default `0o600`: bullswarm's files may hold account settings). */
  readonly mode?: number;
  /**
   * Keep the file being replaced as `<name>.bak` (default false; synchronous form only). The
   * backup is made by a hard link (a copy where links are unsupported) and itself moved into place
   * atomically.
   */
  readonly backup?: boolean;
}

/**
 * The temp-file name pattern: `.<name>.<pid>.<random>.tmp`, in the target's own directory. The
 * random part comes from `Math.random` (no node:crypto, which would load on every CLI start); the
 * file is opened with `wx`, so a clash fails instead of sharing a temp file.
 */
export function tempFileName(target: string): string {
  const random = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  return join(dirname(target), `.${basename(target)}.${process.pid}.${random}.tmp`);
}

/**
 * Write a file atomically (see {@link WriteFileAtomicOptions}). With `backup`, the replaced
 * version is kept as `<name>.bak`. A failed write (a full disk, a read-only file system) leaves the
 * previous version and no temp file, and throws `FileWriteError` naming `path` (its `code` is the
 * system's).
 *
 * The directory must exist. The write is not a lock: concurrent writers of one file each land
 * whole, the last rename wins (read-modify-write needs a lock around it).
 *
 * @example
 * ```ts
 * writeFileAtomic('/home/me/.bullswarm/workflows/abc/state.json', JSON.stringify(state), { mode: 0o600 });
 * ```
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): void {
  const temp = tempFileName(path);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', options.mode ?? 0o600);
    let written = 0;
    if (bytes.length > 0) checkWriteFault(path);
    while (written < bytes.length) {
      written += writeSync(fd, bytes, written, bytes.length - written);
    }
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    if (options.backup) backupFile(path);
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) closeQuietly(fd);
    unlinkQuietly(temp);
    throw asFileWriteError(error, path);
  }
  fsyncDirectory(dirname(path));
}

/** Make `<path>.bak` a copy of `path` (if it exists), replacing any older backup atomically. */
function backupFile(path: string): void {
  const backup = `${path}.bak`;
  const temp = tempFileName(backup);
  try {
    try {
      linkSync(path, temp);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      copyFileSync(path, temp);
    }
    renameSync(temp, backup);
    // When the old backup already is a link to the same file (a writer was killed between making
    // the backup and renaming the new version in), POSIX rename() succeeds without doing anything
    // and leaves `temp` behind: remove our name in every case.
    unlinkQuietly(temp);
  } catch (error) {
    unlinkQuietly(temp);
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** fsync a directory so a rename in it survives a power loss; a no-op where unsupported. */
export function fsyncDirectory(directory: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(directory, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms (Windows) and file systems cannot open or fsync a directory.
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

/**
 * Remove temp files left beside `target` by writers that died mid-write (their pid is gone).
 * Temp files of live processes are left alone. Returns the names removed.
 */
export function removeStaleTempFiles(target: string): string[] {
  const directory = dirname(target);
  const prefix = `.${basename(target)}.`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && !isPidAlive(pid)) {
      unlinkQuietly(join(directory, name));
      removed.push(name);
    }
  }
  return removed;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
