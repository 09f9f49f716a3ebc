import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { DispatchEvent } from '../dispatch/dispatch-types';

/** Writes dispatch events as JSON Lines. */
export interface JsonlEventWriter {
  /** Appends one event as one line; bound, so it can be passed as `onEvent` directly. */
  readonly write: (event: DispatchEvent) => void;
  /** Closes the file (a stream passed in is ended only when `endStream` was set). */
  close(): Promise<void>;
}

/**
 * An event sink that writes each {@link DispatchEvent} as one JSON line, in the order they
 * happen. Given a path, the file (and its directory) is created if missing and appended to with
 * one synchronous write per event, so a line is on disk before the next step starts and a crash
 * never leaves half a line behind a finished one. Given a stream, lines are written to it.
 *
 * @example
 * const events = createJsonlEventWriter('/tmp/run/events.jsonl');
 * await dispatchTask(runtime, { ...request, onEvent: events.write });
 * await events.close();
 */
export function createJsonlEventWriter(
  target: string | Writable,
  options: { readonly endStream?: boolean } = {},
): JsonlEventWriter {
  if (typeof target === 'string') {
    const path = resolve(target);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    let fd: number | undefined = openSync(path, 'a', 0o600);
    return {
      write: (event) => {
        if (fd === undefined) throw new Error(`event writer for ${path} is closed`);
        writeSync(fd, `${JSON.stringify(event)}\n`);
      },
      close: async () => {
        if (fd !== undefined) closeSync(fd);
        fd = undefined;
      },
    };
  }
  const stream = target;
  return {
    write: (event) => {
      stream.write(`${JSON.stringify(event)}\n`);
    },
    close: () =>
      new Promise<void>((done, fail) => {
        if (!options.endStream) {
          done();
          return;
        }
        stream.once('error', fail);
        stream.end(() => done());
      }),
  };
}
