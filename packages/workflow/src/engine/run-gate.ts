import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Default wall-clock limit of a gate, seconds. */
export const DEFAULT_GATE_TIMEOUT_SEC = 600;

/** The result of one gate run. */
export interface GateResult {
  readonly ok: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  /** The last lines of its output (stdout and stderr interleaved). */
  readonly tail: string;
  /** One line: `gate \`npm test\` failed (exit 1): <last output line>`. */
  readonly why: string;
  readonly logFile: string;
}

/**
 * Runs a gate command in the work tree. An argv list runs without a shell; a string runs as
 * `sh -c <string>` — it is the program author's own command line (like an npm script), and
 * validation keeps step outputs and fan-out items out of it. Output goes to `logFile`; the process
 * group is killed (TERM, then KILL after 5 s) when `timeoutSec` runs out or `signal` aborts. A gate
 * that cannot start fails saying why; a missing (or non-directory) `cwd` is named as such — not as
 * the `spawn sh ENOENT` Node reports for it.
 */
export function runGate(options: {
  readonly command: string | readonly string[];
  readonly cwd: string;
  readonly timeoutSec: number;
  readonly logFile: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}): Promise<GateResult> {
  const [file, args] =
    typeof options.command === 'string'
      ? ['sh', ['-c', options.command]]
      : [options.command[0] as string, options.command.slice(1)];
  const display = typeof options.command === 'string' ? options.command : options.command.join(' ');
  mkdirSync(dirname(options.logFile), { recursive: true });
  const fd = openSync(options.logFile, 'w', 0o600);
  const badCwd = cwdProblem(options.cwd);
  if (badCwd !== undefined) {
    writeSync(fd, `${badCwd}\n`);
    closeSync(fd);
    return Promise.resolve({
      ok: false,
      exitCode: null,
      signal: null,
      timedOut: false,
      tail: `${badCwd}\n`,
      why: `gate \`${display}\` failed (could not start: ${badCwd})`,
      logFile: options.logFile,
    });
  }
  return new Promise((resolve) => {
    let timedOut = false;
    let finished = false;
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', fd, fd],
      detached: true,
    });
    const killGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {
        // gone
      }
    };
    const stop = () => {
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 5_000).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutSec * 1000);
    timer.unref();
    const onAbort = () => stop();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (exitCode: number | null, signal: string | null, spawnError?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (spawnError) writeSync(fd, `\n${spawnError.message}\n`);
      closeSync(fd);
      const tail = lastLines(readFileSync(options.logFile, 'utf8'), 30);
      const ok = !spawnError && !timedOut && exitCode === 0;
      const lastLine =
        tail
          .split('\n')
          .filter((line) => line.trim() !== '')
          .pop() ?? '';
      const how = spawnError
        ? `could not start: ${spawnError.message}`
        : timedOut
          ? `timed out after ${options.timeoutSec}s`
          : exitCode !== null
            ? `exit ${exitCode}`
            : `signal ${signal}`;
      resolve({
        ok,
        exitCode,
        signal,
        timedOut,
        tail,
        why: ok
          ? `gate \`${display}\` passed`
          : `gate \`${display}\` failed (${how})${lastLine ? `: ${lastLine.trim().slice(0, 200)}` : ''}`,
        logFile: options.logFile,
      });
    };
    child.on('error', (error) => finish(null, null, error));
    child.on('exit', (code, signal) => finish(code, signal));
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
