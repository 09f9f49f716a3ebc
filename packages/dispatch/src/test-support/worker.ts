import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DispatchRequest } from '../dispatch/dispatch-types';

/** The bundled dispatch the worker imports (built by vitest.global-setup.ts). */
export const WORKER_DIST_INDEX = fileURLToPath(
  new URL('../../test-results/worker/dist/index.js', import.meta.url),
);
const WORKER_SCRIPT = fileURLToPath(new URL('./dispatch-worker.mjs', import.meta.url));

/** A bullswarm process running one dispatchTask, with its JSON-line output. */
export interface DispatchWorker {
  readonly child: ChildProcess;
  /** Resolves with the first line whose `type` is `type`. */
  waitFor(type: string): Promise<Record<string, unknown>>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts `node dispatch-worker.mjs` on a home; the request must be JSON (no onEvent, no signal). */
export function startDispatchWorker(
  home: string,
  env: Record<string, string>,
  request: Omit<DispatchRequest, 'onEvent' | 'signal'>,
  options: { readonly ownSignalListener?: boolean } = {},
): DispatchWorker {
  const child = spawn(
    process.execPath,
    [
      WORKER_SCRIPT,
      WORKER_DIST_INDEX,
      JSON.stringify({ home, env, request, ownSignalListener: options.ownSignalListener === true }),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], cwd: join(WORKER_DIST_INDEX, '..') },
  );
  const lines: Record<string, unknown>[] = [];
  const waiters: { type: string; resolve: (line: Record<string, unknown>) => void }[] = [];
  let pending = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts) {
      if (part.trim() === '') continue;
      const line = JSON.parse(part) as Record<string, unknown>;
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.type === line.type)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return {
    child,
    exited,
    waitFor: (type) =>
      new Promise((resolve, reject) => {
        const seen = lines.find((line) => line.type === type);
        if (seen) {
          resolve(seen);
          return;
        }
        waiters.push({ type, resolve });
        void exited.then((end) =>
          reject(new Error(`worker exited (${end.code ?? end.signal}) before ${type}: ${end.stderr}`)),
        );
      }),
  };
}
