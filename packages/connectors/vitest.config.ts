import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources in tests (the "@bullswarm/source"
// export condition), so a package's unit tests never wait for another package's build.
const conditions = ['@bullswarm/source', 'node', 'import', 'module', 'default'];

export default defineConfig({
  define: { __BULLSWARM_VERSION__: '"0.0.0-test"' },
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['node', 'import', 'default'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    restoreMocks: true,
    // The sim and process tests spawn real processes, several per test: 5 s is too short on two
    // shared cores under a full CI run.
    testTimeout: 30_000,
    // The run's own TMPDIR, checked empty at the end (tooling/test-support/src/tmp-guard.ts).
    globalSetup: ['../../tooling/test-support/src/tmp-guard.ts', './vitest.global-setup.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
