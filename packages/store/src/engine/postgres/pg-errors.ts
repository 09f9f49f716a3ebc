/** Node's socket error codes that mean "the server cannot be reached (now)". */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  // a Unix socket whose server is stopped: the socket file is gone
  'ENOENT',
]);

/** SQLSTATEs of a lost or refused connection: class 08, and the server shutting down or starting. */
const CONNECTION_STATES = new Set(['57P01', '57P02', '57P03']);

/** The driver's messages for a connection that ended or never opened (they carry no code). */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Connection terminated unexpectedly',
  'the database system is starting up',
  'the database system is shutting down',
];

/** The code of a driver error (SQLSTATE or errno code), if any. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether an error means the connection is gone (or never came): worth reconnecting. */
export function isConnectionError(error: unknown): boolean {
  const code = errorCode(error);
  if (code !== undefined && (SOCKET_CODES.has(code) || CONNECTION_STATES.has(code) || code.startsWith('08')))
    return true;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && CONNECTION_MESSAGES.some((text) => message.includes(text));
}

/** A serialization failure or deadlock: the transaction may simply be run again. */
export function isConflictError(error: unknown): boolean {
  const code = errorCode(error);
  return code === '40001' || code === '40P01';
}

/** A lock wait that passed `lock_timeout`. */
export function isLockTimeout(error: unknown): boolean {
  return errorCode(error) === '55P03';
}

/** A unique or primary key constraint refused a row, on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const code = errorCode(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** The error's message, or its text. */
export function errorDetail(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message !== '' ? message : String(error);
}
