import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Inside bullswarm's own repository (examples/connector-template) the run's TMPDIR is also checked
// empty at the end by the repository's guard; a standalone copy has no such file and skips it.
const repositoryGuard = fileURLToPath(
  new URL('../../tooling/test-support/src/tmp-guard.ts', import.meta.url),
);

// @bullswarm/connectors resolves like any installed package (its built `dist/`), as it does for a
// published connector.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: [...(existsSync(repositoryGuard) ? [repositoryGuard] : []), './vitest.global-setup.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
