import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

/** Where the child-process tests import the built store from. */
export const workerDistDir = fileURLToPath(new URL('../../test-results/worker-dist/', import.meta.url));

/**
 * vitest globalSetup: build the store for the child processes the tests spawn (they run plain
 * `node`, which cannot load TypeScript). Workspace dependencies are bundled from their TypeScript
 * sources (the `@bullswarm/source` condition), so this works from a clean clone where no other
 * package is built; the output goes to test-results/, never over the package's real dist.
 */
export default async function setup(): Promise<void> {
  await build({
    config: false,
    entry: { index: fileURLToPath(new URL('../index.ts', import.meta.url)) },
    outDir: workerDistDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: false,
    sourcemap: false,
    clean: true,
    silent: true,
    noExternal: [/^@bullswarm\//],
    define: { __BULLSWARM_VERSION__: '"0.0.0-test"' },
    esbuildOptions(options) {
      options.conditions = ['@bullswarm/source', 'import', 'node'];
    },
  });
}
