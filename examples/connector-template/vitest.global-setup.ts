import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

function newest(directory: string): number {
  let latest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * The discovery test loads this package the way bullswarm does: resolved by name from a project
 * and `import()`ed from its BUILT `dist/index.js`. When that is missing or stale, build the
 * JavaScript only (type declarations would need the workspace packages built first), so the test
 * runs from a clean clone. Under turbo the package build has already run and nothing is rebuilt.
 */
export default function setup(): void {
  const built = join(root, 'dist', 'index.js');
  if (existsSync(built) && statSync(built).mtimeMs >= newest(join(root, 'src'))) return;
  const args = [
    'tsup',
    '--no-config',
    'src/index.ts',
    '--format',
    'esm',
    '--platform',
    'node',
    '--target',
    'node20',
  ];
  const result = spawnSync('npx', [...args, '--external', '@bullswarm/connectors', '--out-dir', 'dist'], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0)
    throw new Error(`building dist/index.js for the discovery test failed (tsup exit ${result.status})`);
}
