import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CONNECTORS_ROOT, PROVIDERS_ROOT, REPO_ROOT, SIM_CLI_BUILT } from './paths';

export * from './chromium';
export { CONNECTORS_ROOT, PROVIDERS_ROOT, REPO_ROOT, SIM_CLI_BUILT } from './paths';
export {
  findPostgresBin,
  postgresRequired,
  runPostgresTests,
  startTestPostgres,
  TEST_POSTGRES_SCRIPT,
  type TestPostgres,
} from './postgres';
export { createTestDatabase, type TestDatabase } from './postgres-database';
export * from './test-home';
export * from './tmux';

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
 * Builds `packages/connectors/dist/sim-cli.js` (JavaScript only: no clean, no type declarations,
 * which would need the other workspace packages built) when it is missing or older than a connectors
 * source or a provider manifest. `forWhat` names the tests in the error message.
 */
export function ensureSimBuilt(forWhat: string): void {
  const stale =
    !existsSync(SIM_CLI_BUILT) ||
    statSync(SIM_CLI_BUILT).mtimeMs <
      Math.max(newestSource(join(CONNECTORS_ROOT, 'src')), newestSource(PROVIDERS_ROOT));
  if (!stale) return;
  const args = ['tsup', '--no-config', 'src/sim/sim-cli.ts', '--format', 'esm', '--platform', 'node'];
  const result = spawnSync('npx', [...args, '--target', 'node20', '--out-dir', 'dist'], {
    cwd: CONNECTORS_ROOT,
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0) {
    throw new Error(
      `building packages/connectors/dist/sim-cli.js for the ${forWhat} failed (tsup exit ${result.status})`,
    );
  }
}

/** Options of {@link bundleWorker}. */
export interface BundleWorkerOptions {
  /** Output names → entry files (absolute). */
  readonly entry: Readonly<Record<string, string>>;
  /** Where the bundle goes (emptied first). */
  readonly outDir: string;
  /** Also bundle the sim CLI beside it as `sim-cli.js` (for bundled connectors resolving it). */
  readonly withSim?: boolean;
  /** Copy providers/ into `<outDir>/providers` (where bundled connectors look from a `dist/`). */
  readonly withProviders?: boolean;
}

/**
 * Bundles a worker entry with its workspace packages from their TypeScript sources into `outDir`,
 * for tests that run plain `node` children. better-sqlite3 (native) and pg (loaded lazily, with
 * its optional native bindings) stay external and are resolved from the store package's own
 * dependencies.
 */
export async function bundleWorker(options: BundleWorkerOptions): Promise<void> {
  const fromStore = createRequire(join(REPO_ROOT, 'packages', 'store', 'package.json'));
  const sqlite = fromStore.resolve('better-sqlite3');
  const pg = fromStore.resolve('pg');
  rmSync(options.outDir, { recursive: true, force: true });
  // Loaded here, not at the top: the many tests that only write homes never load tsup.
  const { build } = await import('tsup');
  await build({
    config: false,
    entry: {
      ...options.entry,
      ...(options.withSim ? { 'sim-cli': join(CONNECTORS_ROOT, 'src', 'sim', 'sim-cli.ts') } : {}),
    },
    outDir: options.outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: false,
    sourcemap: false,
    clean: true,
    silent: true,
    splitting: false,
    noExternal: [/^(?!(?:better-sqlite3|pg)$).*/],
    define: { __BULLSWARM_VERSION__: '"0.0.0-test"' },
    banner: {
      js: "import { createRequire as __bsCreateRequire } from 'node:module';\nconst require = __bsCreateRequire(import.meta.url);",
    },
    esbuildPlugins: [
      {
        name: 'better-sqlite3-from-store',
        setup(pluginBuild) {
          pluginBuild.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true }));
          pluginBuild.onResolve({ filter: /^pg$/ }, () => ({ path: pg, external: true }));
        },
      },
    ],
    esbuildOptions(buildOptions) {
      buildOptions.conditions = ['@bullswarm/source', 'import', 'node'];
    },
  });
  if (options.withProviders) cpSync(PROVIDERS_ROOT, join(options.outDir, 'providers'), { recursive: true });
}
