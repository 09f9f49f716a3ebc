import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources in tests (the "@bullswarm/source"
// export condition), so a package's unit tests never wait for another package's build. The
// end-to-end tests in test/ run the BUILT binary; the global setup builds it and its deps.
// vitest hands these to the test workers as Node's --conditions too, which Node applies to
// require() as well: with `import` among them, pg's require('pg-pool') (the Postgres test
// databases) would load pg-pool's ES module build and fail. Vite adds `import`/`require` by
// itself per import, so they are not listed.
const conditions = ['@bullswarm/source', 'node', 'default'];

export default defineConfig({
  define: { __BULLSWARM_VERSION__: '"0.0.0-test"' },
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['node', 'import', 'default'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    restoreMocks: true,
    // The run's own TMPDIR, checked empty at the end (tooling/test-support/src/tmp-guard.ts), the
    // Postgres server of the shared-store tests (tooling/test-support/src/postgres-setup.ts), and
    // the built binary.
    globalSetup: [
      '../../tooling/test-support/src/tmp-guard.ts',
      '../../tooling/test-support/src/postgres-setup.ts',
      './vitest.global-setup.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
