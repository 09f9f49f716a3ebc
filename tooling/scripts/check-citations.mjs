// `pnpm lint` (after biome): fails when a tracked file — a source comment, a README, AGENTS.md, a
// doc, a fixture's provenance — cites a document a clone of this repository does not hold: the
// maintainers' notes beside the repository (`../shared/…`, `shared/spec/…`, `shared/research/…`),
// or the spec files by a bare name (`routing.md`, `swarm-autonomy.md`,
// `workflows-design-history.md`). bullswarm's own descriptions are docs/routing.md,
// docs/workflows.md and docs/swarm.md; cite those (see AGENTS.md).
//
// `node tooling/scripts/check-citations.mjs [file…]` checks the given files instead of every
// tracked one.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const self = path.relative(root, import.meta.filename);

const RULES = [
  {
    pattern: /(?:\.\.\/|\/work\/|\b)shared\/(?:spec|research|STYLE)\b/g,
    fix: 'cite docs/… (or the primary source)',
  },
  { pattern: /\.\.\/shared\//g, fix: 'cite a file of this repository' },
  { pattern: /(?<![\w./-])routing\.md\b/g, fix: 'cite docs/routing.md' },
  { pattern: /\bswarm-autonomy\.md\b/g, fix: 'cite docs/swarm.md' },
  { pattern: /\bworkflows-design-history\.md\b/g, fix: 'cite docs/workflows.md' },
];

const TEXT = /\.(?:[cm]?[jt]s|tsx?|md|json|ya?ml)$/;
const given = process.argv.slice(2);
const files =
  given.length > 0
    ? given.map((file) => path.relative(root, path.resolve(file)))
    : execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
        .split('\n')
        .filter((file) => TEXT.test(file) && file !== self && file !== 'pnpm-lock.yaml');

const problems = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch {
    continue; // listed but deleted in the work tree
  }
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    for (const { pattern, fix } of RULES) {
      for (const match of line.matchAll(pattern)) {
        problems.push(
          `${file}:${index + 1}:${match.index + 1}: "${match[0]}" is not in this repository: ${fix}`,
        );
      }
    }
  });
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`check-citations: ${problems.length} citation(s) point outside the repository`);
  process.exit(1);
}
console.log(`check-citations: ${files.length} files cite only what the repository holds`);
