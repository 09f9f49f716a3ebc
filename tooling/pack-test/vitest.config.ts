import { defineConfig } from 'vitest/config';

// `pnpm test:pack` (root): tooling/scripts/pack-workspace.mjs builds and packs every publishable
// package into <repo>/packed/ first; these tests install those tarballs outside the repository.
// Installs download from the npm registry and compile better-sqlite3, so the bounds are minutes;
// every command a test runs has its own timeout (test/run-command.ts).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // One file at a time: each installs packages, and the machine has two cores.
    fileParallelism: false,
    testTimeout: 25 * 60_000,
    hookTimeout: 25 * 60_000,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
