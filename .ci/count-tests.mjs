// Totals the tests over every workspace package from the vitest JSON reports (the turbo `test`
// task's, tooling/pack-test's from `pnpm test:pack` and tooling/cli-conformance's from `pnpm test:clis`)
// (`test-results/vitest.json`, written by each package's vitest config) and prints one line:
// "N passed, N failed". A package whose tests should have run but left no report counts as a
// failure, so a run that silently executed nothing cannot look green.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];

for (const group of ['packages', 'apps', 'examples', 'tooling']) {
  const groupDir = path.join(root, group);
  if (!existsSync(groupDir)) continue;
  for (const name of readdirSync(groupDir)) {
    const pkgDir = path.join(groupDir, name);
    const pkgJson = path.join(pkgDir, 'package.json');
    if (!existsSync(pkgJson)) continue;
    const pkg = JSON.parse(readFileSync(pkgJson, 'utf8'));
    // `test:pack` (tooling/pack-test) and `test:clis` (tooling/cli-conformance) are their own steps
    // of .ci/run, outside the turbo `test` task.
    if (!pkg.scripts?.test && !pkg.scripts?.['test:pack'] && !pkg.scripts?.['test:clis']) continue;
    const report = path.join(pkgDir, 'test-results', 'vitest.json');
    if (!existsSync(report)) {
      missing.push(pkg.name);
      continue;
    }
    const data = JSON.parse(readFileSync(report, 'utf8'));
    for (const file of data.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (test.status === 'passed') passed += 1;
        else if (test.status === 'failed') failed += 1;
        else skipped += 1;
      }
      // A file that failed to load has no assertions but is a failure.
      if ((file.assertionResults ?? []).length === 0 && file.status === 'failed') failed += 1;
    }
  }
}

if (missing.length > 0) {
  console.log(`no test report from: ${missing.join(', ')}`);
  failed += missing.length;
}
if (skipped > 0) console.log(`${skipped} skipped or todo`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
