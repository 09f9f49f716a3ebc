import { fstatSync, statSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Redactor } from '@bullswarm/connectors/redact';

/**
 * Where a command reads and writes. The binary passes the process's streams; `bullswarm demo`
 * passes its own so it can show each command's real output under a header.
 */
export interface CliIo {
  /** Write to standard output (the answer, lists, JSON). */
  readonly out: (text: string) => void;
  /** Write to standard error (route lines, progress, errors). */
  readonly err: (text: string) => void;
  /** Standard input (`run -`, `meters claude-statusline`). */
  readonly stdin: Readable;
  /** The environment the command runs in (`BULLSWARM_HOME`, `BULLSWARM_NOW`, `NO_COLOR`, `PATH`…). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether standard output is a terminal (colour, alignment for people). */
  readonly stdoutIsTTY: boolean;
  /** Whether standard error is a terminal (live progress lines). */
  readonly stderrIsTTY: boolean;
  /** Whether standard input is a terminal (setup's confirmation question). */
  readonly stdinIsTTY: boolean;
  /** The working directory relative paths resolve against. */
  readonly cwd: string;
  /**
   * Adds the credential values of an environment (a pool's account environment) to what this io
   * redacts; set by {@link redactingIo}.
   */
  readonly addSecretEnv?: (env: Readonly<Record<string, string | undefined>>) => void;
  /**
   * Lets one exact value this process minted for the person who started it (the dashboard's access
   * token) through the redaction; set by {@link redactingIo}.
   */
  readonly allowValue?: (value: string) => void;
}

/** The io of the running process, with what to await before the process exits. */
export interface ProcessIo extends CliIo {
  /** Resolves once everything written to a `process.stdout`/`process.stderr` stream is flushed. */
  flush(): Promise<void>;
}

type StdFd = 1 | 2;

const stdStream = (fd: StdFd): NodeJS.WriteStream => (fd === 1 ? process.stdout : process.stderr);

/** Which of `process.stdout`/`process.stderr` exist (were read by anyone); see {@link trackStdStreams}. */
const createdStreams = new Set<StdFd>();
let tracking = false;

/**
 * Notes when `process.stdout` or `process.stderr` is first read (Node creates each stream on
 * first use), so {@link ProcessIo.flush} waits for exactly the streams that exist, and so
 * `process.stdout` gets the quiet-EPIPE handler whoever creates it.
 */
function trackStdStreams(): void {
  if (tracking) return;
  tracking = true;
  for (const [fd, name] of [
    [1, 'stdout'],
    [2, 'stderr'],
  ] as const) {
    const property = Object.getOwnPropertyDescriptor(process, name);
    if (property?.get === undefined || property.configurable !== true) {
      createdStreams.add(fd); // not a lazy getter here: treat it as created
      continue;
    }
    const get = property.get;
    Object.defineProperty(process, name, {
      ...property,
      get() {
        const stream = get.call(process) as NodeJS.WriteStream;
        if (!createdStreams.has(fd)) {
          createdStreams.add(fd);
          // `bullswarm pools | head -1`: the reader went away; stop quietly instead of crashing.
          if (fd === 1) stream.on('error', quietOnEpipe);
        }
        return stream;
      },
    });
  }
}

function quietOnEpipe(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
}

/**
 * Whether text for this descriptor goes to it directly with write(2): a pipe, a socket, a file or
 * /dev/null (not a terminal, and not on Windows). Node itself writes pipes and files synchronously
 * on Linux; doing it here means a command whose output goes to a pipe never creates
 * `process.stdout` (a net socket and the stream machinery: milliseconds of every start).
 */
function writesDirectly(fd: StdFd): boolean {
  if (process.platform === 'win32') return false;
  try {
    const stat = fstatSync(fd);
    if (stat.isFIFO() || stat.isSocket() || stat.isFile()) return true;
    // A character device is a terminal or /dev/null (`2>/dev/null` in a statusline command).
    return stat.isCharacterDevice() && stat.rdev === statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

/**
 * A writer for standard output or error: write(2) on the descriptor when {@link writesDirectly},
 * else the process's stream. A descriptor that turns out non-blocking (`EAGAIN`) hands the rest,
 * and every later write, to the stream, which waits for it. EPIPE on standard output ends the
 * process quietly (as the stream's handler does); on standard error it is dropped.
 */
function stdWriter(fd: StdFd): { readonly direct: boolean; write(text: string): void } {
  let direct = writesDirectly(fd);
  return {
    direct,
    write(text) {
      if (!direct) {
        stdStream(fd).write(text);
        return;
      }
      const bytes = Buffer.from(text, 'utf8');
      let offset = 0;
      while (offset < bytes.length) {
        try {
          offset += writeSync(fd, bytes, offset);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EPIPE') {
            if (fd === 1) process.exit(process.exitCode ?? 0);
            return;
          }
          if (code !== 'EAGAIN') throw error;
          direct = false;
          stdStream(fd).write(bytes.subarray(offset));
          return;
        }
      }
    },
  };
}

/**
 * The io of the running process. Output to a pipe or file is written to the descriptor directly
 * and `process.stdin` is touched only when a command reads it: creating those streams is a
 * measurable part of a start, and most commands need neither.
 */
export function processIo(): ProcessIo {
  trackStdStreams();
  const out = stdWriter(1);
  const err = stdWriter(2);
  return {
    out: (text) => out.write(text),
    err: (text) => err.write(text),
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    stdoutIsTTY: !out.direct && process.stdout.isTTY === true,
    stderrIsTTY: !err.direct && process.stderr.isTTY === true,
    get stdinIsTTY() {
      return process.stdin.isTTY === true;
    },
    cwd: process.cwd(),
    async flush() {
      await Promise.all(
        [...createdStreams].map(
          (fd) => new Promise<void>((resolve) => stdStream(fd).write('', () => resolve())),
        ),
      );
    },
  };
}

/** Reads a whole stream as UTF-8 text. */
export async function readAll(stream: Readable): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}

/**
 * `io` with everything written to standard output and standard error passed through bullswarm's
 * one redactor (`createRedactor` of `@bullswarm/connectors`): token shapes and the values of the
 * environment's credential-named variables, plus each pool's account environment once a command
 * adds it (`addSecretEnv`). Every command of the CLI writes through it (see run-cli.ts), so no
 * answer, error message or JSON document prints a secret.
 */
export function redactingIo<T extends CliIo>(io: T, redactor: Redactor): T {
  return Object.create(io, {
    out: { value: (text: string) => io.out(redactor.text(text)), enumerable: true },
    err: { value: (text: string) => io.err(redactor.text(text)), enumerable: true },
    addSecretEnv: { value: (env: Readonly<Record<string, string | undefined>>) => redactor.addEnv(env) },
    allowValue: { value: (value: string) => redactor.allow(value) },
  }) as T;
}
