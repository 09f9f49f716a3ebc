import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

function newest(path: string): number {
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/**
 * The conformance suite loads this package the way `bullswarm connectors add` does: from its
 * BUILT `dist/index.js`. When that is missing or older than the sources, build it first
 * (`tsup`, this package's own build), so `npm test` works on a fresh checkout.
 */
export default function setup(): void {
  const built = join(root, 'dist', 'index.js');
  const sources = Math.max(newest(join(root, 'src')), newest(join(root, 'connector.json')));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  const result = spawnSync('npx', ['--no', 'tsup'], { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0)
    throw new Error(`building dist/ for the tests failed (tsup exit ${result.status})`);
}
