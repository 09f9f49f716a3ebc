import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker, ensureSimBuilt } from '@bullswarm/test-support';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The workflow tests run steps on sim and echo pools (the BUILT `bullswarm-sim`); the kill tests run
 * the engine in a plain `node` child from test-results/worker/dist/ (see
 * src/test-support/worker-process.ts), bundled with the sim CLI and a copy of providers/ beside it.
 */
export default async function setup(): Promise<void> {
  ensureSimBuilt('workflow tests');
  await bundleWorker({
    entry: { index: join(root, 'src', 'test-support', 'worker-entry.ts') },
    outDir: join(root, 'test-results', 'worker', 'dist'),
    withSim: true,
    withProviders: true,
  });
}
