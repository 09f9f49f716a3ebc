import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `path` so that a reader (or a crash) sees the old content or the new, never a part: a temp
 * file in the same directory (`.<name>.<pid>.<random>.tmp`), fsync, rename over the target. The temp
 * file is removed when a step fails. The directory must exist. Internal to this package (the sim's
 * meter.json, the build's builtin-manifests.json); no node:crypto, which would load with the
 * built-in connectors on every start.
 */
export function writeFileAtomic(path: string, text: string): void {
  const temp = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`,
  );
  try {
    const fd = openSync(temp, 'wx');
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
