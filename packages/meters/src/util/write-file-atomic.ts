import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file so that readers see either the old or the new content, never a half-written
 * one: a temp file in the same directory, fsync, rename over the target (and fsync the
 * directory where the platform allows it). node:crypto (for the temp name) is loaded here, on the
 * first write, not with the package: loading it is a measurable part of a CLI start.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const directory = dirname(path);
  await mkdir(directory, { recursive: true });
  const { randomBytes } = await import('node:crypto');
  const temp = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  try {
    const dirHandle = await open(directory, 'r');
    try {
      await dirHandle.sync();
    } finally {
      await dirHandle.close();
    }
  } catch {
    // Directory fsync is not supported everywhere (e.g. Windows); the rename is still atomic.
  }
}
