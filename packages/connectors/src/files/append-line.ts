import { fstatSync, openSync, readSync, writeSync } from 'node:fs';

/**
 * Opens an append-only JSON-lines file for appending (created with `mode` when missing). Reads are
 * allowed too (`a+`), so {@link appendLine} can look at the last byte.
 */
export function openAppendOnly(path: string, mode = 0o600): number {
  return openSync(path, 'a+', mode);
}

/**
 * Whether the file behind `fd` ends inside a line: its last byte is not `\n`. That is a line torn
 * by a writer killed mid-write (kill -9, a full disk); appending onto it would glue the next line
 * to the torn one and lose both as one unparsable line.
 */
export function endsInsideLine(fd: number): boolean {
  const { size } = fstatSync(fd);
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
}

/**
 * Appends `line` (which must end with `\n`) to an append-only file opened by
 * {@link openAppendOnly}, as one `write()` on the `O_APPEND` descriptor. A torn last line is sealed
 * first — a `\n` goes before the new line, in the same write — so the torn line stays one
 * unparsable line (readers skip it) and every new line is whole. With several appending processes
 * a seal can at worst add an empty line, which readers skip too.
 *
 * `check: false` skips the look at the last byte, for a sole writer that knows its last append
 * ended whole.
 *
 * @throws the write error (`ENOSPC`, `EIO`, `EROFS`, …): what was written before stays.
 */
export function appendLine(fd: number, line: string, check = true): void {
  const bytes = Buffer.from(check && endsInsideLine(fd) ? `\n${line}` : line, 'utf8');
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}
