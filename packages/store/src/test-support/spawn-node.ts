import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workerDistDir } from './build-worker-dist';

/** The built store index the child processes import. */
export const workerDistIndex = join(workerDistDir, 'index.js');

/** Path of a script in src/test-support/. */
export function supportScript(name: string): string {
  return fileURLToPath(new URL(`./${name}`, import.meta.url));
}

export interface NodeResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Spawn `node <script> <args…>` and collect its output. */
export function spawnNode(
  script: string,
  args: readonly string[],
): { child: ChildProcess; done: Promise<NodeResult> } {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<NodeResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}
