import type { Readable } from 'node:stream';

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
}

/** The io of the running process. */
export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    stdin: process.stdin,
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stdinIsTTY: process.stdin.isTTY === true,
    cwd: process.cwd(),
  };
}

/** Reads a whole stream as UTF-8 text. */
export async function readAll(stream: Readable): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}
