import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources in tests (the "@bullswarm/source"
// export condition), so a package's unit tests never wait for another package's build.
// vitest hands these to the test workers as Node's --conditions too, which Node applies to
// require() as well: with `import` among them, pg's require('pg-pool') would load pg-pool's ES
// module build and fail. Vite adds `import`/`require` by itself per import, so they are not listed.
const conditions = ['@bullswarm/source', 'node', 'default'];

export default defineConfig({
  define: { __BULLSWARM_VERSION__: '"0.0.0-test"' },
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['node', 'import', 'default'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    restoreMocks: true,
    // Builds the sim CLI (when stale) and the bundled worker the process-level tests spawn.
    // The run's own TMPDIR, checked empty at the end (tooling/test-support/src/tmp-guard.ts).
    globalSetup: [
      '../../tooling/test-support/src/tmp-guard.ts',
      './vitest.global-setup.ts',
      // A throwaway Postgres for the `*.postgres.test.ts` files (the same suites on a shared store).
      '../../tooling/test-support/src/postgres-setup.ts',
    ],
    // Real processes, real git, real SQLite, two cores.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
