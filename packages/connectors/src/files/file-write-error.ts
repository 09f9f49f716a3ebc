import { dirname } from 'node:path';
import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.FileWriteError';
const marker = Symbol.for(errorKey);

/** Codes that mean the place cannot be written at all (a bad home, exit 2) rather than a fault during work. */
const UNWRITABLE = new Set(['EROFS', 'EACCES', 'EPERM', 'ENOTDIR', 'EISDIR']);

function explain(path: string, code: string | undefined, cause: unknown): string {
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return `cannot write ${path}: no space left on its disk (${code}); what was written before is kept: free some space, then run the command again`;
    case 'EROFS':
      return `cannot write ${path}: its file system is read-only (EROFS); use a writable home (BULLSWARM_HOME, or the home the command is given) or remount it read-write`;
    case 'EACCES':
    case 'EPERM':
      return `cannot write ${path}: permission denied (${code}); bullswarm must be able to write its home: check the owner and mode of ${dirname(path)}`;
    case 'EIO':
      return `cannot write ${path}: the disk reported an I/O error (EIO); check the disk (e.g. \`dmesg\`), then run the command again`;
    case 'ENOTDIR':
      return `cannot write ${path}: a file is in its path where a directory should be (ENOTDIR)`;
    case 'EISDIR':
      return `cannot write ${path}: it is a directory (EISDIR)`;
    default:
      return `cannot write ${path} (${code ?? (cause as Error)?.message ?? String(cause)})`;
  }
}

/**
 * A file bullswarm had to write could not be written: a full disk (`ENOSPC`), a read-only file
 * system (`EROFS`), a permission (`EACCES`), an I/O error (`EIO`). The message names the path and
 * what to do. `fault` is `input` (exit 2) when the place cannot be written at all — read-only,
 * no permission, a file where a directory should be: a home to fix — and `failure` (exit 1) for a
 * fault during work (a full disk, an I/O error). `code` is the system's code, so checks of
 * `error.code` keep working on the wrapped error.
 */
export class FileWriteError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly path: string;
  readonly code: string | undefined;

  constructor(options: { readonly path: string; readonly cause: unknown }) {
    const code = (options.cause as NodeJS.ErrnoException | undefined)?.code;
    super({
      name: 'FileWriteError',
      message: explain(options.path, code, options.cause),
      cause: options.cause,
      fault: code !== undefined && UNWRITABLE.has(code) ? 'input' : 'failure',
    });
    this.path = options.path;
    this.code = code;
  }

  static override isInstance(value: unknown): value is FileWriteError {
    return hasErrorMarker(value, errorKey);
  }
}

/**
 * `error` as a {@link FileWriteError} naming `path` when it is a system error of the file system
 * (it has an `E…` code); anything else (a bug, an error already wrapped) is returned as it is.
 */
export function asFileWriteError(error: unknown, path: string): unknown {
  if (FileWriteError.isInstance(error)) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code)
    ? new FileWriteError({ path, cause: error })
    : error;
}
