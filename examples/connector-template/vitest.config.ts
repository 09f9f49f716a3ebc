import { defineConfig } from 'vitest/config';

// @bullswarm/connectors resolves like any installed package (its built `dist/`), as it does for a
// published connector.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The run's own TMPDIR, checked empty at the end (tooling/test-support/src/tmp-guard.ts).
    globalSetup: ['../../tooling/test-support/src/tmp-guard.ts', './vitest.global-setup.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
