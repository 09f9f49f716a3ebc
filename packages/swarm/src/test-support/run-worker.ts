import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bundled worker built by the vitest global setup. */
export const WORKER_PATH = fileURLToPath(
  new URL('../../test-results/worker/dist/swarm-worker.js', import.meta.url),
);

/** A running worker: its process, and its stdout lines as they come. */
export interface RunningWorker {
  readonly child: ChildProcess;
  /** Resolves with the next stdout line. */
  nextLine(): Promise<string>;
  /** Resolves when the process exits, with its code and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node swarm-worker.js <command> <json>`. */
export function startWorker(command: string, args: Record<string, unknown>): RunningWorker {
  const child = spawn(process.execPath, [WORKER_PATH, command, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: join(WORKER_PATH, '..'),
  });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let at = buffer.indexOf('\n');
    while (at !== -1) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
      at = buffer.indexOf('\n');
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      for (const waiter of waiters.splice(0)) waiter(`(exited ${code ?? signal}: ${stderr.trim()})`);
      resolve({ code, signal });
    });
  });
  return {
    child,
    exited,
    nextLine() {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (child.exitCode !== null || child.signalCode !== null) {
        return Promise.resolve(`(exited ${child.exitCode ?? child.signalCode}: ${stderr.trim()})`);
      }
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}
