import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

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

/** Where the kill tests import the bundled engine from (see src/test-support/workflow-worker.mjs). */
export const WORKER_DIST = join(root, 'test-results', 'worker', 'dist');

/**
 * Tests that kill a workflow process run the engine in a plain `node` child, which cannot load
 * TypeScript: bundle the engine with its workspace packages from their sources (the
 * `@bullswarm/source` condition) into test-results/worker/dist/, with the sim CLI beside it and a
 * copy of providers/ (where the bundled connectors look from a `dist/`). better-sqlite3 (native)
 * stays external, imported from the store's own dependency. (The dispatch tests do the same.)
 */
async function buildWorker(): Promise<void> {
  const sqlite = createRequire(join(root, '..', 'store', 'package.json')).resolve('better-sqlite3');
  rmSync(join(root, 'test-results', 'worker'), { recursive: true, force: true });
  await build({
    config: false,
    entry: {
      index: join(root, 'src', 'test-support', 'worker-entry.ts'),
      'sim-cli': join(connectorsRoot, 'src', 'sim', 'sim-cli.ts'),
    },
    outDir: WORKER_DIST,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: false,
    sourcemap: false,
    clean: true,
    silent: true,
    splitting: false,
    noExternal: [/^(?!better-sqlite3$).*/],
    define: { __BULLSWARM_VERSION__: '"0.0.0-test"' },
    banner: {
      js: "import { createRequire as __bsCreateRequire } from 'node:module';\nconst require = __bsCreateRequire(import.meta.url);",
    },
    esbuildPlugins: [
      {
        name: 'better-sqlite3-from-store',
        setup(pluginBuild) {
          pluginBuild.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true }));
        },
      },
    ],
    esbuildOptions(options) {
      options.conditions = ['@bullswarm/source', 'import', 'node'];
    },
  });
  cpSync(providersRoot, join(WORKER_DIST, 'providers'), { recursive: true });
}

export default async function setup(): Promise<void> {
  buildSim();
  await buildWorker();
}
