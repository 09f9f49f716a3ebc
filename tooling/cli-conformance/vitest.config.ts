import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources (the "@bullswarm/source" condition);
// `bullswarm` itself is the BUILT binary (apps/cli/dist), built by the root `pnpm test:clis`.
const conditions = ['@bullswarm/source', 'node', 'import', 'module', 'default'];

export default defineConfig({
  define: { __BULLSWARM_VERSION__: '"0.0.0-test"' },
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['node', 'import', 'default'] } },
  test: {
    include: ['src/**/*.test.ts'],
    // The run's own TMPDIR, checked empty at the end (tooling/test-support/src/tmp-guard.ts).
    globalSetup: ['../test-support/src/tmp-guard.ts'],
    // One file per CLI, two at a time (each runs a CLI that may wait on the network).
    maxWorkers: 2,
    // A run is bounded by its env clocks and a hard stop at 3 minutes (src/run-bullswarm.ts); an
    // install by INSTALL_TIMEOUT_MS (src/install-cli.ts). These are the outer guards.
    testTimeout: 240_000,
    hookTimeout: 420_000,
    // Counted by .ci/count-tests.mjs with the other packages' reports.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
