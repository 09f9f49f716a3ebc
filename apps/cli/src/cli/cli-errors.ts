import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const usageKey = 'bullswarm.error.CliUsageError';
const usageMarker = Symbol.for(usageKey);

/**
 * A command line the CLI cannot act on: a bad flag value, a missing argument, a pool or tier
 * that does not fit. Exit code 2. `flag` names the flag or argument, `expected` what is valid.
 */
export class CliUsageError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [usageMarker] = true;
  /** The flag or argument at fault, e.g. `--lane` or `<pool>`. */
  readonly flag: string | undefined;
  /** What would be valid, when it can be said in a few words. */
  readonly expected: string | undefined;

  constructor(options: { message: string; flag?: string; expected?: string; cause?: unknown }) {
    super({ name: 'CliUsageError', fault: 'input', message: options.message, cause: options.cause });
    this.flag = options.flag;
    this.expected = options.expected;
  }

  static override isInstance(value: unknown): value is CliUsageError {
    return hasErrorMarker(value, usageKey);
  }
}

const exitKey = 'bullswarm.error.CliExit';
const exitMarker = Symbol.for(exitKey);

/**
 * Ends the command with an exit code after it has already said why (a failed run printed its
 * `FAILED …` line; setup printed its plan and asked for `--yes`). Nothing more is printed.
 */
export class CliExit extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [exitMarker] = true;
  readonly exitCode: number;

  constructor(exitCode: number, message = `exit ${exitCode}`) {
    super({ name: 'CliExit', message });
    this.exitCode = exitCode;
  }

  static override isInstance(value: unknown): value is CliExit {
    return hasErrorMarker(value, exitKey);
  }
}

/** What a system call was doing, in the words of a message (`open` → `open`, `mkdir` → `create`). */
const SYSCALL_VERBS: Readonly<Record<string, string>> = {
  open: 'open',
  read: 'read',
  write: 'write',
  mkdir: 'create',
  rename: 'replace',
  unlink: 'remove',
  rmdir: 'remove',
  scandir: 'list',
  stat: 'read',
  lstat: 'read',
  copyfile: 'copy',
  link: 'link',
  fsync: 'write',
  fdatasync: 'write',
  close: 'write',
};

/** Codes that mean the place is wrong or cannot be written at all: a home or path to fix (exit 2). */
const PLACE_CODES = new Set([
  'EROFS',
  'EACCES',
  'EPERM',
  'ENOTDIR',
  'EISDIR',
  'ENOENT',
  'ENAMETOOLONG',
  'ELOOP',
]);

function explainCode(code: string, path: string): string {
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return `no space left on its disk (${code}); free some space, then run the command again`;
    case 'EROFS':
      return `its file system is read-only (EROFS); use a writable home (--home or BULLSWARM_HOME) or remount it read-write`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code}); check the owner and mode of ${path} and its directory`;
    case 'EIO':
      return 'the disk reported an I/O error (EIO); check the disk (e.g. `dmesg`), then run the command again';
    case 'ENOTDIR':
      return 'a file is in its path where a directory should be (ENOTDIR)';
    case 'EISDIR':
      return 'it is a directory (EISDIR)';
    case 'ENOENT':
      return 'it does not exist (ENOENT)';
    case 'EMFILE':
    case 'ENFILE':
      return `too many files are open (${code}); raise the limit (ulimit -n) or run fewer commands at once`;
    default:
      return `the system said ${code}`;
  }
}

/**
 * What the CLI says for an error the operating system or SQLite raised that no bullswarm error
 * wrapped (a read-only home, a full disk, a damaged database): its own message naming the path and
 * what to do — never "this looks like a bug". Exit 2 for a place that cannot be used at all (a bad
 * home: read-only, no permission, a file in the way), 1 for a fault during work (a full disk, an
 * I/O error, a damaged store). Undefined for anything else.
 */
export function systemErrorReport(
  error: unknown,
): { readonly exitCode: 1 | 2; readonly message: string } | undefined {
  const fields = error as { code?: unknown; path?: unknown; syscall?: unknown; message?: unknown } | null;
  const code = typeof fields?.code === 'string' ? fields.code : undefined;
  if (code === undefined) return undefined;
  if (/^E[A-Z]+$/.test(code) && typeof fields?.path === 'string') {
    const verb = (typeof fields.syscall === 'string' && SYSCALL_VERBS[fields.syscall]) || 'use';
    return {
      exitCode: PLACE_CODES.has(code) ? 2 : 1,
      message: `error: cannot ${verb} ${fields.path}: ${explainCode(code, fields.path)}`,
    };
  }
  if (code.startsWith('SQLITE_')) {
    const what = 'the bullswarm store (bullswarm.db in the home)';
    const said = typeof fields?.message === 'string' ? `: ${fields.message}` : '';
    if (code.startsWith('SQLITE_FULL')) {
      return {
        exitCode: 1,
        message: `error: ${what} cannot grow: its disk is full (${code}${said}); free some space, then run the command again`,
      };
    }
    if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN')) {
      return {
        exitCode: 2,
        message: `error: ${what} cannot be written (${code}${said}): use a writable home (--home or BULLSWARM_HOME) or make it writable`,
      };
    }
    if (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')) {
      return {
        exitCode: 1,
        message: `error: ${what} is damaged (${code}${said}): move it aside (or restore a backup) and bullswarm will start a new one`,
      };
    }
    if (code.startsWith('SQLITE_IOERR')) {
      return {
        exitCode: 1,
        message: `error: the disk reported an I/O error on ${what} (${code}${said}); check the disk, then run the command again`,
      };
    }
  }
  return undefined;
}
