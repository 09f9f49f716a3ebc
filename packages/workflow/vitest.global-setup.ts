import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const connectorsRoot = join(root, '..', 'connectors');
const providersRoot = join(root, '..', '..', 'providers');

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
 * The workflow tests run steps on sim and echo pools, which spawn the BUILT `bullswarm-sim`
 * (`packages/connectors/dist/sim-cli.js`). When it is missing or older than a connectors source,
 * build just that entry (JavaScript only), as the connectors and dispatch test setups do, so
 * `pnpm --filter @bullswarm/workflow test` works from a clean clone.
 */
function buildSim(): void {
  const built = join(connectorsRoot, 'dist', 'sim-cli.js');
  const stale =
    !existsSync(built) ||
    statSync(built).mtimeMs <
      Math.max(newestSource(join(connectorsRoot, 'src')), newestSource(providersRoot));
  if (!stale) return;
  const args = ['tsup', '--no-config', 'src/sim/sim-cli.ts', '--format', 'esm', '--platform', 'node'];
  const result = spawnSync('npx', [...args, '--target', 'node20', '--out-dir', 'dist'], {
    cwd: connectorsRoot,
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0) {
    throw new Error(
      `building packages/connectors/dist/sim-cli.js for the workflow tests failed (tsup exit ${result.status})`,
    );
  }
}

export default async function setup(): Promise<void> {
  buildSim();
}
