import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

function newestSource(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The sim tests spawn the BUILT `dist/sim-cli.js`. When it is missing or older than a source file,
 * build just that entry (JavaScript only, no clean, no type declarations — which would need the
 * other workspace packages built first), so `pnpm --filter @bullswarm/connectors test` works from
 * a clean clone. Under turbo the package build has already run and nothing is rebuilt.
 */
export default function setup(): void {
  const built = join(root, 'dist', 'sim-cli.js');
  const stale =
    !existsSync(built) ||
    statSync(built).mtimeMs <
      Math.max(newestSource(join(root, 'src')), newestSource(join(root, '..', '..', 'providers')));
  if (!stale) return;
  const args = ['tsup', '--no-config', 'src/sim/sim-cli.ts', '--format', 'esm', '--platform', 'node'];
  const result = spawnSync('npx', [...args, '--target', 'node20', '--out-dir', 'dist'], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0)
    throw new Error(`building dist/sim-cli.js for the sim tests failed (tsup exit ${result.status})`);
}
