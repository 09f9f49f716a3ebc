import { readFileSync } from 'node:fs';
import { locateJsonError } from '../json/locate-json-error';

/**
 * Why a JSON file or text could not be used:
 * - `missing`: no such file;
 * - `unreadable`: the OS refused it (a directory, no permission — `code` says which);
 * - `not-text`: it holds binary data or is not UTF-8 (never echoed back);
 * - `invalid-json`: a syntax error, at `line` and `column`.
 */
export type JsonReadReason = 'missing' | 'unreadable' | 'not-text' | 'invalid-json';

/** A JSON text or file bullswarm cannot use, said without quoting its content. */
export interface JsonReadProblem {
  readonly ok: false;
  readonly reason: JsonReadReason;
  /**
   * What is wrong, to follow the file's name: `does not exist`, `is not valid JSON: expected ","
   * or "}", found "]" at line 3, column 7`. Never the file's text (it may be binary or secret).
   */
  readonly problem: string;
  /** 1-based, for `invalid-json` when the position is known. */
  readonly line?: number;
  readonly column?: number;
  /** The OS error code of a `missing` or `unreadable` file. */
  readonly code?: string;
  readonly cause?: unknown;
}

/** The result of {@link parseJsonText} and {@link readJsonFile}. */
export type JsonRead = { readonly ok: true; readonly value: unknown } | JsonReadProblem;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses a JSON text a user wrote (a leading byte-order mark is ignored). A syntax error is
 * reported by line and column; binary data (a NUL byte, bytes that are not UTF-8) as `not-text`
 * with its byte offset. The problem never quotes the text beyond one escaped character, so a
 * binary or secret file is never echoed to a terminal.
 */
export function parseJsonText(input: string | Uint8Array): JsonRead {
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    try {
      text = utf8.decode(input);
    } catch (cause) {
      return { ok: false, reason: 'not-text', problem: 'is not a text file (it is not UTF-8)', cause };
    }
  }
  const nul = text.indexOf('\0');
  if (nul !== -1) {
    return { ok: false, reason: 'not-text', problem: `is not a text file (binary data at byte ${nul})` };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (cause) {
    let location: ReturnType<typeof locateJsonError>;
    try {
      location = locateJsonError(text);
    } catch {
      // the scanner recurses like JSON.parse; a file nested too deep for it has no position
      location = undefined;
    }
    // Node's own message quotes the text ("{"a": }" is not valid JSON): never pass it on.
    if (location === undefined) {
      return {
        ok: false,
        reason: 'invalid-json',
        problem: 'is not valid JSON (nested too deep to read)',
        cause,
      };
    }
    return {
      ok: false,
      reason: 'invalid-json',
      problem: `is not valid JSON: ${location.problem} at line ${location.line}, column ${location.column}`,
      line: location.line,
      column: location.column,
      cause,
    };
  }
}

/**
 * Reads and parses a JSON file a user wrote (a workflow program, a plan, a handoff packet, a
 * connector.json, `--content`): the one reader, so every such file reports problems alike (see
 * {@link parseJsonText}). Never throws; the caller names the file and chooses the error.
 */
export function readJsonFile(filePath: string): JsonRead {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(filePath);
  } catch (cause) {
    return readFailure(cause);
  }
  return parseJsonText(bytes);
}

/** A failed read of a JSON file as a {@link JsonReadProblem} (`missing` or `unreadable`). */
export function readFailure(cause: unknown): JsonReadProblem {
  const code = (cause as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { ok: false, reason: 'missing', problem: 'does not exist', code, cause };
  return {
    ok: false,
    reason: 'unreadable',
    problem: code === 'EISDIR' ? 'is a directory, not a file' : `cannot be read (${code ?? String(cause)})`,
    ...(code === undefined ? {} : { code }),
    cause,
  };
}
