import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { execa } from 'execa';

/** A work tree's files, path (relative, `/`-separated) → a signature that changes when the file does. */
export type TreeSnapshot = ReadonlyMap<string, string>;

/** How a tree is snapshotted. */
export type TreeMode = { readonly kind: 'git'; readonly prefix: string } | { readonly kind: 'walk' };

/** Directories a walk never enters. */
export const WALK_IGNORED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** `git <args>` in `cwd` (no shell); its stdout, or a rejection when it fails. */
async function git(cwd: string, args: readonly string[]): Promise<string> {
  const result = await execa('git', args, {
    cwd,
    stdin: 'ignore',
    maxBuffer: 256 * 1024 * 1024,
    stripFinalNewline: false,
  });
  return result.stdout;
}

/**
 * `git` when `cwd` is inside a git work tree (with the prefix of `cwd` inside the repository),
 * else `walk`.
 */
export async function detectTreeMode(cwd: string): Promise<TreeMode> {
  try {
    const inside = (await git(cwd, ['rev-parse', '--is-inside-work-tree'])).trim();
    if (inside !== 'true') return { kind: 'walk' };
    const prefix = (await git(cwd, ['rev-parse', '--show-prefix'])).trim();
    return { kind: 'git', prefix };
  } catch {
    return { kind: 'walk' };
  }
}

/**
 * Snapshots the tree at `cwd`, leaving out paths under `excluded` (relative prefixes, e.g. a
 * bullswarm home inside the tree):
 * - git: `git status --porcelain -z --untracked-files=all -- .` lists what differs from HEAD;
 *   each listed path's signature is its status code, size and mtime (a path absent from the list
 *   is as committed). Ignored files (.gitignore) are not seen.
 * - walk: every file's size and mtime, skipping `.git` and `node_modules` directories.
 * A file rewritten with the same size within the file system's mtime resolution is not seen.
 *
 * The walk and the stats are synchronous on purpose: a few system calls each, they would otherwise
 * queue behind every other file operation of the process in libuv's thread pool (attempt files,
 * fsyncs), which under a wide fan-out made each snapshot wait tens of milliseconds. A very large
 * non-git tree blocks the event loop for the length of its walk, once per snapshot.
 */
export async function snapshotTree(
  cwd: string,
  mode: TreeMode,
  excluded: readonly string[] = [],
): Promise<TreeSnapshot> {
  const keep = (path: string) => !excluded.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  const snapshot = new Map<string, string>();
  if (mode.kind === 'git') {
    const out = await git(cwd, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', '.']);
    const tokens = out.split('\0');
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i] as string;
      if (token.length < 4) continue;
      const code = token.slice(0, 2);
      const repoPath = token.slice(3);
      if (code[0] === 'R' || code[0] === 'C') i++; // the next token is the source path
      if (!repoPath.startsWith(mode.prefix)) continue;
      const path = repoPath.slice(mode.prefix.length);
      if (path === '' || !keep(path.replace(/\/$/, ''))) continue;
      snapshot.set(path, `${code}:${signature(join(cwd, path))}`);
    }
    return snapshot;
  }
  const stack: string[] = [cwd];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      const path = relative(cwd, full).split(sep).join('/');
      if (!keep(path)) continue;
      if (entry.isDirectory()) {
        if (!WALK_IGNORED_DIRECTORIES.has(entry.name)) stack.push(full);
        continue;
      }
      snapshot.set(path, signature(full));
    }
  }
  return snapshot;
}

function signature(path: string): string {
  try {
    const stat = lstatSync(path, { bigint: true });
    return `${stat.size}:${stat.mtimeNs}`;
  } catch {
    return 'deleted';
  }
}

/** Paths that differ between two snapshots (added, changed or removed), sorted. */
export function diffSnapshots(before: TreeSnapshot, after: TreeSnapshot): string[] {
  const changed = new Set<string>();
  for (const [path, sig] of after) if (before.get(path) !== sig) changed.add(path);
  for (const path of before.keys()) if (!after.has(path)) changed.add(path);
  return [...changed].sort();
}
