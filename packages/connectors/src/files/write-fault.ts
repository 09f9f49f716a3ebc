/**
 * TEST ONLY — an injected write error, for tests of disk faults where no small full or read-only
 * file system can be mounted (CI without mount rights). Never set it outside a test.
 *
 * `BULLSWARM_TEST_WRITE_FAULT=<CODE>:<path suffix>[:<writes that succeed first>]`, e.g.
 * `ENOSPC:events.jsonl:5`: in this process, the first 5 writes to a file whose path ends with
 * `events.jsonl` succeed and every later one fails with `ENOSPC` (as the kernel would say it). The
 * writers that check it: the atomic writer (`writeFileAtomic`, `writeFileAtomicAsync`, by target
 * path), the workflow event log and the attempt-output writer. The count starts over whenever the
 * variable's value changes.
 */
export const WRITE_FAULT_VARIABLE = 'BULLSWARM_TEST_WRITE_FAULT';

interface WriteFault {
  readonly code: string;
  readonly suffix: string;
  readonly after: number;
}

let parsedFrom: string | undefined;
let parsed: WriteFault | null = null;
let seen = 0;

function fault(): WriteFault | null {
  const text = process.env[WRITE_FAULT_VARIABLE] ?? '';
  if (text === parsedFrom) return parsed;
  seen = 0;
  parsed = null;
  if (text === '') {
    parsedFrom = text;
    return parsed;
  }
  const match = /^(E[A-Z]+):([^:]+)(?::(\d+))?$/.exec(text);
  if (!match) {
    throw new Error(
      `${WRITE_FAULT_VARIABLE}=${JSON.stringify(text)} is not valid: expected <CODE>:<path suffix>[:<writes before the fault>], e.g. ENOSPC:events.jsonl:5 (a test-only setting)`,
    );
  }
  parsed = { code: match[1] as string, suffix: match[2] as string, after: Number(match[3] ?? 0) };
  parsedFrom = text;
  return parsed;
}

/**
 * Throws the injected error when {@link WRITE_FAULT_VARIABLE} names `path` and its writes that may
 * succeed are used up; otherwise counts this write and returns.
 */
export function checkWriteFault(path: string): void {
  const injected = fault();
  if (injected === null || !path.endsWith(injected.suffix)) return;
  seen += 1;
  if (seen <= injected.after) return;
  const error = new Error(
    `${injected.code}: injected write fault (${WRITE_FAULT_VARIABLE}), write '${path}'`,
  );
  Object.assign(error, { code: injected.code, syscall: 'write', path });
  throw error;
}
