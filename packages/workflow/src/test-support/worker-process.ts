import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bundled engine built by vitest.global-setup.ts. */
export const WORKER_BUNDLE = fileURLToPath(
  new URL('../../test-results/worker/dist/index.js', import.meta.url),
);
const WORKER_SCRIPT = fileURLToPath(new URL('./workflow-worker.mjs', import.meta.url));

/** A workflow engine running in a child process. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Resolves with the run id once the run has started (undefined if the process ended first). */
  readonly runId: Promise<string | undefined>;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>;
  kill(): void;
}

/** Starts `node workflow-worker.mjs <bundle> <args…>` with `env`. */
export function spawnWorker(args: readonly string[], env: Readonly<Record<string, string>>): WorkerProcess {
  const child = spawn(process.execPath, [WORKER_SCRIPT, WORKER_BUNDLE, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let announce: (id: string | undefined) => void = () => {};
  const runId = new Promise<string | undefined>((resolve) => {
    announce = resolve;
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const match = /^run (wf-[a-z0-9]+)$/m.exec(stdout);
    if (match) announce(match[1]);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>((resolve) => {
    child.on('exit', (code, signal) => {
      announce(undefined);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return {
    child,
    runId,
    exited,
    kill: () => {
      child.kill('SIGKILL');
    },
  };
}

/** Polls `check` every 10 ms until it returns true or the process exits; returns whether it held. */
export async function waitFor(check: () => boolean, worker: WorkerProcess): Promise<boolean> {
  let gone = false;
  void worker.exited.then(() => {
    gone = true;
  });
  for (;;) {
    if (check()) return true;
    if (gone) return check();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export { join };
