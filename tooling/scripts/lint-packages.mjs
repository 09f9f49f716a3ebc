// `pnpm lint:packages`: publint and arethetypeswrong on the packed tarball of every publishable
// package — the files npm would publish, with the package.json `pnpm pack` writes (publishConfig
// applied, workspace ranges rewritten). Exits 1 when either tool reports a problem.
// Packages that ship CommonJS (pacing, connectors) are checked for `import` and `require` under
// node16 resolution; the ESM-only ones under attw's `esm-only` profile; the bin-only CLI by publint
// alone (docs/architecture.md).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { packAll, repoRoot } from './pack-workspace.mjs';

const attwBin = path.join(repoRoot, 'node_modules', '.bin', 'attw');
const work = mkdtempSync(path.join(tmpdir(), 'bullswarm-lint-packages-'));
let failures = 0;
try {
  for (const { name, manifest, tarball } of packAll(work)) {
    const bytes = readFileSync(tarball);
    const tarballBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const { messages, pkg } = await publint({
      pack: { tarball: tarballBuffer },
      level: 'warning',
      strict: true,
    });
    for (const message of messages)
      console.log(`${name}: publint ${message.type}: ${formatMessage(message, pkg)}`);
    if (messages.length > 0) failures += 1;
    else console.log(`${name}: publint ok`);

    if (manifest.exports === undefined && manifest.main === undefined && manifest.types === undefined) {
      // A bin-only package (the CLI): no entry point a program imports, so no types to check.
      console.log(`${name}: attw skipped (bin only, nothing to import)`);
      continue;
    }
    const shipsCommonJs = JSON.stringify(manifest.exports ?? {}).includes('"require"');
    const profile = shipsCommonJs ? 'node16' : 'esm-only';
    try {
      execFileSync(attwBin, [tarball, '--profile', profile, '--format', 'table-flipped'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      console.log(`${name}: attw ok (${profile})`);
    } catch (error) {
      failures += 1;
      console.log(`${name}: attw (${profile}) found problems:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failures > 0) {
  console.log(`lint:packages: ${failures} problem report(s)`);
  process.exit(1);
}
console.log('lint:packages: every publishable package passes publint and arethetypeswrong');
