// `pnpm ci:release` / the release workflow's publish step (.github/workflows/release.yml): publishes
// the tarballs `pnpm pack:all` wrote to packed/ (tooling/scripts/pack-workspace.mjs: the same build
// and pack `pnpm test:pack` installs and tests) with `npm publish <tarball>`, which publishes with
// npm provenance (each package's publishConfig.provenance, and NPM_CONFIG_PROVENANCE in the
// workflow). A version the registry already has is skipped, so a re-run publishes only what is
// missing. Then `changeset tag` tags each released version, and a `New tag: <name>@<version>` line
// per package tells changesets/action which GitHub releases to create.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKED_DIR, pnpm, repoRoot } from './pack-workspace.mjs';

const listFile = path.join(PACKED_DIR, 'packed.json');
if (!existsSync(listFile)) {
  console.error(`${listFile} is missing: run \`pnpm pack:all\` first`);
  process.exit(2);
}
const packed = JSON.parse(readFileSync(listFile, 'utf8'));

/** Whether the registry already has this version (npm view prints nothing and exits 1 when it has not). */
function published(name, version) {
  try {
    return (
      execFileSync('npm', ['view', `${name}@${version}`, 'version'], { encoding: 'utf8' }).trim() === version
    );
  } catch {
    return false;
  }
}

let released = 0;
for (const { name, version, tarball } of packed) {
  if (published(name, version)) {
    console.log(`${name}@${version} is already published`);
    continue;
  }
  execFileSync('npm', ['publish', path.join(PACKED_DIR, tarball), '--access', 'public'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  console.log(`New tag: ${name}@${version}`);
  released += 1;
}
if (released > 0) pnpm(['exec', 'changeset', 'tag'], { cwd: repoRoot, stdio: 'inherit' });
console.log(`published ${released} of ${packed.length} packages`);
