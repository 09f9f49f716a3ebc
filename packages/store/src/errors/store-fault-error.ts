import { BullswarmError, hasErrorMarker } from '@bullswarm/pacing';

const errorKey = 'bullswarm.error.StoreFaultError';
const marker = Symbol.for(errorKey);

/** SQLite result codes (primary part) the store names as a fault of the disk or the file. */
const FAULT_CODES = [
  'SQLITE_FULL',
  'SQLITE_READONLY',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
];

/** Whether `error` is SQLite reporting a fault of the disk or the database file (not a bug, not busy). */
export function isStoreFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && FAULT_CODES.some((fault) => code === fault || code.startsWith(`${fault}_`))
  );
}

function explain(dbPath: string, code: string, operation: string): { message: string; input: boolean } {
  const at = `(${code}, at ${operation})`;
  if (code.startsWith('SQLITE_FULL')) {
    return {
      message: `the bullswarm store ${dbPath} cannot grow: its disk is full ${at}; what was written before is kept: free some space, then run the command again`,
      input: false,
    };
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return {
      message: `the bullswarm store ${dbPath} cannot be written ${at}: its file or its home is read-only; read-only commands (pools, assignments, workflow list/show) still work: for this one use a writable home (BULLSWARM_HOME, or the home the command is given) or make it writable`,
      input: true,
    };
  }
  if (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')) {
    return {
      message: `the bullswarm store ${dbPath} is damaged ${at}: a page of it is not valid; move it aside (or restore a backup) and bullswarm will start a new one (history, meters and the in-flight ledger start empty)`,
      input: false,
    };
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return {
      message: `the disk reported an I/O error on the bullswarm store ${dbPath} ${at}; check the disk (e.g. \`dmesg\`), then run the command again`,
      input: false,
    };
  }
  return {
    message: `the bullswarm store ${dbPath} cannot be opened ${at}: check that its home exists and can be written (BULLSWARM_HOME, or the home the command is given)`,
    input: true,
  };
}

/**
 * A fault of the disk or the database file while the store works: the disk is full
 * (`SQLITE_FULL`), the store is read-only (`SQLITE_READONLY`), a page is damaged (`SQLITE_CORRUPT`,
 * also when it was corrupted after the store was opened), an I/O error (`SQLITE_IOERR`). The
 * message names the database and what to do; `fault` is `input` (exit 2) for a store that cannot be
 * written or opened at all (a home to fix), `failure` (exit 1) for a fault during work.
 */
export class StoreFaultError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly dbPath: string;
  /** SQLite's extended result code, e.g. `SQLITE_FULL`, `SQLITE_READONLY_DBMOVED`. */
  readonly code: string;
  /** What was being done, e.g. `ledger.record`. */
  readonly operation: string;

  constructor(options: { dbPath: string; code: string; operation: string; cause?: unknown }) {
    const { message, input } = explain(options.dbPath, options.code, options.operation);
    super({ name: 'StoreFaultError', message, cause: options.cause, fault: input ? 'input' : 'failure' });
    this.dbPath = options.dbPath;
    this.code = options.code;
    this.operation = options.operation;
  }

  static override isInstance(value: unknown): value is StoreFaultError {
    return hasErrorMarker(value, errorKey);
  }
}
