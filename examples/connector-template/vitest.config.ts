import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources in tests (the "@bullswarm/source"
// export condition). A published connector would test against the installed package instead.
const conditions = ['@bullswarm/source', 'node', 'import', 'module', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['node', 'import', 'default'] } },
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
