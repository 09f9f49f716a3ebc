import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { asFileWriteError } from './file-write-error';
import { checkWriteFault } from './write-fault';
import { tempFileName } from './write-file-atomic';

/**
 * The asynchronous form of `writeFileAtomic` (./write-file-atomic.ts), for writers that must not block the event loop
 * (the workflow state writer, meter caches). `createDirectory` makes the directory first (0700).
 * A failed write leaves the previous version and no temp file, and throws `FileWriteError`.
 */
export async function writeFileAtomicAsync(
  path: string,
  data: string | Uint8Array,
  options: { readonly mode?: number; readonly createDirectory?: boolean } = {},
): Promise<void> {
  const directory = dirname(path);
  const temp = tempFileName(path);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    if (options.createDirectory) await mkdir(directory, { recursive: true, mode: 0o700 });
    handle = await open(temp, 'wx', options.mode ?? 0o600);
  } catch (error) {
    throw asFileWriteError(error, path);
  }
  try {
    if (data.length > 0) checkWriteFault(path);
    await handle.writeFile(data);
    // fdatasync: the data and the size, which is all a rename-into-place needs (the workflow state
    // writer's many writes per second stay cheap).
    await handle.datasync();
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw asFileWriteError(error, path);
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw asFileWriteError(error, path);
  }
  await fsyncDirectoryAsync(directory);
}

async function fsyncDirectoryAsync(directory: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // Some platforms (Windows) and file systems cannot open or fsync a directory.
  } finally {
    await handle?.close().catch(() => {});
  }
}
