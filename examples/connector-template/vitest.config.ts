import { defineConfig } from 'vitest/config';

// @bullswarm/connectors resolves like any installed package (its built `dist/`), as it does for a
// published connector.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
