#!/usr/bin/env node
// Fails when a non-test TypeScript source file is over MAX_LINES lines: a file that long is doing
// more than one job (see docs/architecture.md, "Data flow of one routed run"). Run by `pnpm test` and
// `pnpm check:size`; walks packages/*/src, apps/*/src, tooling/*/src and examples/**/src.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const MAX_LINES = 500;
const root = new URL('../..', import.meta.url).pathname;

/**
 * Files still over the limit while their split is under way (issue 12), each with the line count it
 * had when listed: it may shrink but not grow. Remove an entry once its file is split; an entry whose
 * file is at or under the limit fails the check, so the list only shrinks.
 */
const PENDING_SPLITS = new Map([]);

/** The file's stats, or undefined when there is nothing at `path` (or a parent is a file). */
function statOf(path) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

const isTest = (path) => /\.test(-d)?\.ts$/.test(path) || path.split('/').includes('__fixtures__');

function sourceDirs() {
  const dirs = [];
  for (const group of ['packages', 'apps', 'tooling', 'examples']) {
    const base = join(root, group);
    let names;
    try {
      names = readdirSync(base);
    } catch {
      continue;
    }
    for (const name of names) {
      const src = join(base, name, 'src');
      if (statOf(src)?.isDirectory()) dirs.push(src);
    }
  }
  return dirs;
}

const problems = [];
for (const dir of sourceDirs()) {
  for (const entry of readdirSync(dir, { recursive: true })) {
    const path = join(dir, String(entry));
    if (!path.endsWith('.ts') || isTest(path) || path.includes('/node_modules/')) continue;
    const name = relative(root, path);
    const text = readFileSync(path, 'utf8');
    const lines = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const ceiling = PENDING_SPLITS.get(name);
    if (ceiling === undefined) {
      if (lines > MAX_LINES) {
        problems.push(`${name}: ${lines} lines (the limit is ${MAX_LINES}); split it where its jobs part`);
      }
    } else if (lines <= MAX_LINES) {
      problems.push(
        `${name}: ${lines} lines, within the limit; remove it from PENDING_SPLITS in tooling/scripts/check-source-size.mjs`,
      );
    } else if (lines > ceiling) {
      problems.push(
        `${name}: ${lines} lines, more than the ${ceiling} it had when listed as pending a split`,
      );
    }
  }
}
for (const name of PENDING_SPLITS.keys()) {
  if (!statOf(join(root, name))) {
    problems.push(
      `${name}: listed in PENDING_SPLITS of tooling/scripts/check-source-size.mjs but gone; remove the entry`,
    );
  }
}
if (problems.length > 0) {
  console.error(`source files over ${MAX_LINES} lines:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
