import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const connectors = join(root, '..', '..', 'packages', 'connectors');

function newest(directory: string): number {
  let latest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function build(cwd: string, what: string): void {
  const result = spawnSync('npx', ['tsup'], { cwd, stdio: 'inherit', env: process.env });
  if (result.status !== 0)
    throw new Error(`building ${what} for the discovery test failed (tsup exit ${result.status})`);
}

/**
 * The discovery test loads this package the way bullswarm does: resolved by name from a project
 * and `import()`ed from its BUILT dist. Build it (and, when its types are missing, the connectors
 * package it is typed against) when dist is missing or stale. Under turbo both are built already.
 */
export default function setup(): void {
  if (!existsSync(join(connectors, 'dist', 'index.d.ts'))) build(connectors, '@bullswarm/connectors');
  const built = join(root, 'dist', 'index.js');
  if (!existsSync(built) || statSync(built).mtimeMs < newest(join(root, 'src')))
    build(root, 'bullswarm-connector-template');
}
