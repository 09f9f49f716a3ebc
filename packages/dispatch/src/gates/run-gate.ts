import {
  closeSync,
  createWriteStream,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { finished } from 'node:stream/promises';
import { terminateGroup } from '@bullswarm/connectors/internal';
import { execa } from 'execa';

/** Default wall-clock limit of a gate, seconds (workflow steps and swarm plans alike). */
export const DEFAULT_GATE_TIMEOUT_SEC = 600;

/** How long a gate's process group gets between SIGTERM and SIGKILL, ms. */
export const GATE_KILL_GRACE_MS = 5_000;

/** Options of {@link runGate}. */
export interface RunGateOptions {
  /**
   * An argv list runs without a shell; a string runs as `sh -c <string>` — the program author's own
   * command line (like an npm script); callers keep step outputs and fan-out items out of it.
   */
  readonly command: string | readonly string[];
  readonly cwd: string;
  /** Wall-clock limit, seconds (default {@link DEFAULT_GATE_TIMEOUT_SEC}); past it the gate fails. */
  readonly timeoutSec?: number;
  /** Variables laid over `process.env` (or, with `extendEnv: false`, the whole environment). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Default true. */
  readonly extendEnv?: boolean;
  /** Output (stdout and stderr interleaved) goes to this file, created `0600`; else it is kept in memory. */
  readonly logFile?: string;
  readonly signal?: AbortSignal;
  /** SIGTERM → SIGKILL grace of the gate's process group (default {@link GATE_KILL_GRACE_MS}). */
  readonly killGraceMs?: number;
  readonly clock?: () => number;
}

/** The result of one gate run. */
export interface GateResult {
  /** Exit 0 of a command that started; a missing binary, a signal or the time limit is a failure. */
  readonly ok: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  /** Its output, stdout and stderr interleaved (the last 8 KiB when kept in memory). */
  readonly output: string;
  /** The last lines of its output. */
  readonly tail: string;
  /** One line: `gate \`npm test\` failed (exit 1): <last output line>`. */
  readonly why: string;
  readonly logFile?: string;
  readonly startedAt: number;
  readonly endedAt: number;
}

/**
 * The one gate runner (workflow step gates, swarm plan gates): spawned with execa as the leader of
 * its own process group, in `cwd`, stdin closed. The group is ended (SIGTERM, then SIGKILL after
 * `killGraceMs`) when `timeoutSec` runs out or `signal` aborts. A gate that cannot start fails
 * saying why; a missing (or non-directory) `cwd` is named as such — not as the `spawn sh ENOENT`
 * Node reports for it.
 */
export async function runGate(options: RunGateOptions): Promise<GateResult> {
  const clock = options.clock ?? Date.now;
  const startedAt = clock();
  const [file, args] =
    typeof options.command === 'string'
      ? ['sh', ['-c', options.command]]
      : [options.command[0] as string, options.command.slice(1)];
  const display = typeof options.command === 'string' ? options.command : options.command.join(' ');
  const timeoutSec = options.timeoutSec ?? DEFAULT_GATE_TIMEOUT_SEC;
  let fd: number | undefined;
  if (options.logFile !== undefined) {
    mkdirSync(dirname(options.logFile), { recursive: true, mode: 0o700 });
    fd = openSync(options.logFile, 'w', 0o600);
  }
  const finish = (fields: {
    exitCode: number | null;
    signal: string | null;
    timedOut: boolean;
    startError?: string;
    captured?: string;
  }): GateResult => {
    if (fd !== undefined) {
      if (fields.startError !== undefined)
        writeSync(fd, `${fields.captured === '' ? '' : '\n'}${fields.startError}\n`);
      closeSync(fd);
    }
    const whole =
      options.logFile !== undefined
        ? readFileSync(options.logFile, 'utf8')
        : (fields.captured ?? '') + (fields.startError === undefined ? '' : `${fields.startError}\n`);
    const tail = lastLines(whole, 30);
    const ok = fields.startError === undefined && !fields.timedOut && fields.exitCode === 0;
    const lastLine =
      tail
        .split('\n')
        .filter((line) => line.trim() !== '')
        .pop() ?? '';
    const how =
      fields.startError !== undefined
        ? `could not start: ${fields.startError}`
        : fields.timedOut
          ? `timed out after ${timeoutSec}s`
          : fields.exitCode !== null
            ? `exit ${fields.exitCode}`
            : `signal ${fields.signal}`;
    return {
      ok,
      exitCode: fields.exitCode,
      signal: fields.signal,
      timedOut: fields.timedOut,
      output: whole.length > 8192 ? `${whole.slice(-8192)}` : whole,
      tail,
      why: ok
        ? `gate \`${display}\` passed`
        : `gate \`${display}\` failed (${how})${lastLine && fields.startError === undefined ? `: ${lastLine.trim().slice(0, 200)}` : ''}`,
      ...(options.logFile === undefined ? {} : { logFile: options.logFile }),
      startedAt,
      endedAt: clock(),
    };
  };

  const badCwd = cwdProblem(options.cwd);
  if (badCwd !== undefined)
    return finish({ exitCode: null, signal: null, timedOut: false, startError: badCwd, captured: '' });

  const subprocess = execa(file, args, {
    cwd: options.cwd,
    ...(options.env === undefined ? {} : { env: options.env }),
    extendEnv: options.extendEnv ?? true,
    stdin: 'ignore',
    all: true,
    // With a log file the output streams there as it comes (someone may be tailing it).
    buffer: fd === undefined,
    detached: true,
    reject: false,
    stripFinalNewline: false,
  });
  const logged =
    fd === undefined || subprocess.all === undefined
      ? undefined
      : finished(subprocess.all.pipe(createWriteStream('', { fd, autoClose: false })));
  let timedOut = false;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    if (subprocess.pid !== undefined)
      stopping ??= terminateGroup(subprocess.pid, options.killGraceMs ?? GATE_KILL_GRACE_MS, subprocess);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, timeoutSec * 1000);
  const onAbort = () => stop();
  if (options.signal?.aborted) stop();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const result = await subprocess;
  await logged?.catch(() => {});
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  await stopping;
  const started = result.exitCode !== undefined || result.signal !== undefined;
  return finish({
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    timedOut,
    ...(started ? {} : { startError: String(result.originalMessage ?? result.shortMessage) }),
    captured: fd === undefined ? String(result.all ?? '') : '',
  });
}

/** Why `cwd` cannot be a gate's working directory, if it cannot. */
function cwdProblem(cwd: string): string | undefined {
  try {
    return statSync(cwd).isDirectory() ? undefined : `its cwd ${cwd} is not a directory`;
  } catch {
    return `its cwd ${cwd} does not exist`;
  }
}

function lastLines(text: string, count: number): string {
  const lines = text.split('\n');
  return lines
    .slice(Math.max(0, lines.length - count - 1))
    .join('\n')
    .slice(-4000);
}
