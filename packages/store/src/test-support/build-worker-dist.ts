import { fileURLToPath } from 'node:url';
import { bundleWorker } from '@bullswarm/test-support';

/** Where the child-process tests import the built store from. */
export const workerDistDir = fileURLToPath(new URL('../../test-results/worker-dist/', import.meta.url));

/**
 * vitest globalSetup: bundle the store for the child processes the tests spawn (they run plain
 * `node`, which cannot load TypeScript). `bundleWorker` builds from the TypeScript sources of the
 * workspace packages, so this works from a clean clone where no other package is built; the output
 * goes to test-results/, never over the package's real dist.
 */
export default async function setup(): Promise<void> {
  await bundleWorker({
    entry: { index: fileURLToPath(new URL('../index.ts', import.meta.url)) },
    outDir: workerDistDir,
  });
}
