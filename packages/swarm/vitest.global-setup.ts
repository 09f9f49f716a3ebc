import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker, ensureSimBuilt } from '@bullswarm/test-support';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Tests that launch successors and run the drill dispatch the BUILT `bullswarm-sim`; the race and
 * lease-expiry tests run real processes from test-results/worker/dist/swarm-worker.js (see
 * src/test-support/run-worker.ts).
 */
export default async function setup(): Promise<void> {
  ensureSimBuilt('swarm tests');
  await bundleWorker({
    entry: { 'swarm-worker': join(root, 'src', 'test-support', 'swarm-worker.ts') },
    outDir: join(root, 'test-results', 'worker', 'dist'),
  });
}
