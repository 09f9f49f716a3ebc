#!/usr/bin/env node
// Fails when a library speaks the CLI's language: a string in the code of packages/*/src (tests,
// test support and fixtures aside) that names one of the options the bullswarm CLI defines
// (`--worker-pool`, `--as`, `--json`, …). Libraries use domain values and name their API fields;
// the CLI maps fields to flags (docs/architecture.md, "Libraries speak their own language").
//
// The rule, precisely:
// - The flags are every option apps/cli/src defines (`.option('--x …')`, `new Option('--x …')`,
//   the `['--as <addr>', …]` option tuples), plus commander's own --help and --version.
// - Only string literals count (quotes and template text); comments are documentation and may
//   say which flag sets a field.
// - Command lines of other programs are not bullswarm flags even where a name is the same
//   (claude's `--model`, codex's `--json`, git's): the files that build or describe them are
//   listed in OTHER_PROGRAMS_ARGV below, each with the program it speaks to.
// Run by `pnpm lint` and `pnpm check:flags`; `--list` prints every hit instead of failing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;

/** Files whose strings are argv of another program (path prefix → that program). */
const OTHER_PROGRAMS_ARGV = new Map([
  ['packages/connectors/src/sim/', 'bullswarm-sim, the fake agent CLI (its own flags mimic the agent CLIs)'],
  ['packages/connectors/src/parsers/', 'the agent CLIs whose output formats they parse'],
  ['packages/connectors/src/manifest/connector-manifest-schema.ts', 'the agent CLIs a manifest invokes'],
  ['packages/connectors/src/spec/', 'the agent CLIs a connector invokes'],
  [
    'packages/swarm/src/leads/remote-check.ts',
    "git's own options (git tag --list, the fenced commands it reads)",
  ],
]);

/** Packages whose code another change is rewriting: listed, not failed (see PENDING_PACKAGES). */
const PENDING_PACKAGES = new Set([]);

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) {
      if (name !== 'node_modules' && name !== '__fixtures__' && name !== 'test-support') walk(path, out);
    } else if (path.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(path) && !path.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

/**
 * The string literals of a TypeScript text with their line numbers: '…', "…" and the text parts
 * of `…` (without the ${…} parts, which are code). Comments are skipped.
 */
function stringLiterals(text) {
  const found = [];
  let i = 0;
  let line = 1;
  const templateDepth = []; // brace depth at which each open template's ${ started
  let braces = 0;
  const readQuoted = (quote) => {
    const startLine = line;
    let value = '';
    i++;
    while (i < text.length && text[i] !== quote) {
      if (text[i] === '\\') {
        value += text[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (text[i] === '\n') line++;
      value += text[i++];
    }
    i++;
    found.push({ line: startLine, value });
  };
  const readTemplate = () => {
    // i is at the character after ` (or after the } closing a ${…})
    const startLine = line;
    let value = '';
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') {
        value += text[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (c === '`') {
        i++;
        found.push({ line: startLine, value });
        return;
      }
      if (c === '$' && text[i + 1] === '{') {
        i += 2;
        found.push({ line: startLine, value });
        templateDepth.push(braces);
        braces++;
        return;
      }
      if (c === '\n') line++;
      value += c;
      i++;
    }
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      i += 2;
      while (i < text.length && !(text[i] === '*' && text[i + 1] === '/')) {
        if (text[i] === '\n') line++;
        i++;
      }
      i += 2;
    } else if (c === "'" || c === '"') {
      readQuoted(c);
    } else if (c === '`') {
      i++;
      readTemplate();
    } else if (c === '{') {
      braces++;
      i++;
    } else if (c === '}') {
      braces--;
      i++;
      if (templateDepth.length > 0 && templateDepth.at(-1) === braces) {
        templateDepth.pop();
        readTemplate();
      }
    } else {
      i++;
    }
  }
  return found;
}

/** Every long option the bullswarm CLI defines (without the leading --). */
function cliFlags() {
  const flags = new Set(['help', 'version']);
  for (const file of walk(join(root, 'apps/cli/src'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:[oO]ption)\(\s*'(?:-\w, )?--([a-z][a-z0-9-]*)/g))
      flags.add(match[1]);
    for (const match of text.matchAll(/\[\s*'(?:-\w, )?--([a-z][a-z0-9-]*) [<[]/g)) flags.add(match[1]);
  }
  return flags;
}

const flags = cliFlags();
const flagPattern = new RegExp(
  `(?<![\\w-])--(${[...flags].map((f) => f.replace(/-/g, '\\-')).join('|')})(?![\\w-])`,
  'g',
);
const list = process.argv.includes('--list');
const hits = [];
const pending = [];
for (const pkg of readdirSync(join(root, 'packages'))) {
  const src = join(root, 'packages', pkg, 'src');
  let isDir = false;
  try {
    isDir = statSync(src).isDirectory();
  } catch {}
  if (!isDir) continue;
  for (const file of walk(src)) {
    const name = relative(root, file);
    if ([...OTHER_PROGRAMS_ARGV.keys()].some((prefix) => name.startsWith(prefix))) continue;
    for (const literal of stringLiterals(readFileSync(file, 'utf8'))) {
      for (const match of literal.value.matchAll(flagPattern)) {
        const hit = `${name}:${literal.line}: --${match[1]} in ${JSON.stringify(literal.value.slice(0, 80))}`;
        if ([...PENDING_PACKAGES].some((prefix) => name.startsWith(prefix))) pending.push(hit);
        else hits.push(hit);
      }
    }
  }
}
if (list) {
  for (const hit of [...hits, ...pending]) console.log(hit);
  console.log(
    `${hits.length} hits, ${pending.length} in packages pending (${[...PENDING_PACKAGES].join(', ')})`,
  );
} else if (hits.length > 0) {
  console.error(
    `bullswarm CLI flags in library code (name the API field; the CLI maps fields to flags):\n  ${hits.join('\n  ')}`,
  );
  process.exit(1);
} else {
  const note =
    pending.length === 0 ? '' : ` (${pending.length} in ${[...PENDING_PACKAGES].join(', ')}, pending)`;
  console.log(`check-flag-literals: no bullswarm CLI flag in library code${note}`);
}
