import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { InvalidHomeError } from '../errors/invalid-home-error';

const REASONS: Readonly<Record<string, string>> = {
  EROFS: 'its file system is read-only (EROFS)',
  EACCES: 'permission denied (EACCES)',
  EPERM: 'permission denied (EPERM)',
  ENOTDIR: 'a file is in its path where a directory should be (ENOTDIR)',
  ENOSPC: 'no space left on its disk (ENOSPC)',
  EDQUOT: 'the disk quota is used up (EDQUOT)',
};

/**
 * The real reason `dir` could not be created: the error of the nearest existing ancestor that cannot
 * be written (a recursive mkdir on a read-only file system reports ENOENT for the missing parent).
 */
function reasonOf(dir: string, error: unknown): string {
  let code = (error as NodeJS.ErrnoException).code ?? '';
  for (let at = dirname(dir); ; at = dirname(at)) {
    if (existsSync(at)) {
      try {
        accessSync(at, constants.W_OK);
      } catch (denied) {
        code = (denied as NodeJS.ErrnoException).code ?? code;
      }
      break;
    }
    if (dirname(at) === at) break;
  }
  return REASONS[code] ?? `${code || (error as Error).message}`;
}

/**
 * Creates a home directory (and any missing parent) 0700.
 * @throws InvalidHomeError naming the home and the reason (read-only, no permission, a file in the way).
 */
export function createHomeDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new InvalidHomeError({
      home: dir,
      problem: `cannot be created: ${reasonOf(dir, error)}`,
      hint: 'choose a home you can write (BULLSWARM_HOME, or the home the command is given)',
    });
  }
}
