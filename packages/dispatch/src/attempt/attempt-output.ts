import { writeSync } from 'node:fs';
import { asFileWriteError, checkWriteFault, FileWriteError } from '@bullswarm/connectors/internal';
import type { Redactor } from '@bullswarm/connectors/redact';

/** Longest piece of a line held back waiting for its end before it is written anyway (64 KiB). */
export const MAX_HELD_CHARS = 64 * 1024;

/**
 * Streams one of an attempt's outputs (stdout or stderr) into its file as it arrives, redacted:
 * the attempt transcripts are files under the home like any other, so a token the agent prints
 * (`ghp_…`, `sk-ant-…`, `AKIA…`, a credential variable's value) is written as
 * `[redacted <kind>]` (see `createRedactor`). Text is redacted a whole line at a time (a token cut
 * by a chunk boundary is still found); a line longer than {@link MAX_HELD_CHARS} is written up to its
 * last space. JSON lines stay valid JSON (a replacement has no quote or backslash).
 *
 * A write that fails (a full disk, a read-only file system) never throws out of the stream's data
 * handler: the first failure is kept as a `FileWriteError` naming the file, `onError` is told once
 * (the attempt then ends its agent), and later writes are dropped.
 */
export class AttemptOutputWriter {
  private held = '';
  private failure: FileWriteError | undefined;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    private readonly fd: number,
    readonly path: string,
    private readonly redact: Redactor,
    private readonly onError: (error: FileWriteError) => void,
  ) {}

  /** The first write failure, if any. */
  get error(): FileWriteError | undefined {
    return this.failure;
  }

  /** Writes what arrived: every complete line now, the rest once its line ends (or at {@link end}). */
  write(chunk: Buffer | string): void {
    if (this.failure !== undefined) return;
    this.held += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    let cut = this.held.lastIndexOf('\n') + 1;
    if (cut === 0 && this.held.length > MAX_HELD_CHARS) {
      const space = this.held.lastIndexOf(' ');
      cut = space > 0 ? space + 1 : this.held.length;
    }
    if (cut === 0) return;
    const ready = this.held.slice(0, cut);
    this.held = this.held.slice(cut);
    this.put(ready);
  }

  /** Writes what is still held (a last line without its newline). */
  end(): void {
    if (this.failure !== undefined) return;
    const rest = this.held + this.decoder.decode();
    this.held = '';
    if (rest !== '') this.put(rest);
  }

  /** Writes a line of bullswarm's own (e.g. why the command line could not be built), redacted. */
  line(text: string): void {
    this.end();
    this.put(`${text}\n`);
  }

  private put(text: string): void {
    if (this.failure !== undefined) return;
    try {
      checkWriteFault(this.path);
      const bytes = Buffer.from(this.redact.text(text), 'utf8');
      let written = 0;
      while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
    } catch (error) {
      const wrapped = asFileWriteError(error, this.path);
      this.failure = FileWriteError.isInstance(wrapped)
        ? wrapped
        : new FileWriteError({ path: this.path, cause: error });
      this.onError(this.failure);
    }
  }
}
