import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker, ensureSimBuilt } from '@bullswarm/test-support';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The dispatch tests spawn the BUILT `bullswarm-sim`; tests that kill a bullswarm process (SIGKILL,
 * SIGTERM) run dispatch in a plain `node` child from test-results/worker/dist/ (see
 * src/test-support/worker.ts), bundled with the sim CLI and a copy of providers/ beside it.
 */
export default async function setup(): Promise<void> {
  ensureSimBuilt('dispatch tests');
  await bundleWorker({
    entry: { index: join(root, 'src', 'index.ts') },
    outDir: join(root, 'test-results', 'worker', 'dist'),
    withSim: true,
    withProviders: true,
  });
}
