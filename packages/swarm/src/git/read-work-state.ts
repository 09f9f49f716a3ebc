import { checkoutRoot, repositoryRoot } from './repository-root';
import { git, tryGit } from './run-git';
import { stripRemoteCredentials } from './strip-remote-credentials';

/** Where the work is, as git itself reports it. */
export interface WorkState {
  /**
   * The repository: its `origin` URL when it has one, with credentials, query and fragment removed
   * ({@link stripRemoteCredentials}), else {@link WorkState.repositoryRoot}.
   */
  readonly repository: string;
  /** The repository's main worktree (shared by every worktree of the repository). */
  readonly repositoryRoot: string;
  /** The checkout (worktree) the work is in: its absolute top level. */
  readonly checkout: string;
  /** The checked-out branch (short name), or `HEAD` when detached. */
  readonly branch: string;
  /** The head commit (full hash). */
  readonly head: string;
  /** The branch's upstream (`origin/lane-a`), or null when it has none. */
  readonly upstream: string | null;
  /** The head commit is contained in the upstream as last fetched (false without an upstream). */
  readonly pushed: boolean;
  /**
   * Paths (relative to the checkout, sorted) with staged, unstaged or untracked changes; both
   * sides of a rename. Ignored files are not listed.
   */
  readonly uncommitted: readonly string[];
}

/** Options of {@link readWorkState}. */
export interface ReadWorkStateOptions {
  /**
   * Path prefixes (relative to the checkout, `/`-separated) left out of `uncommitted`: a plan's
   * own records (`plans/<id>/journal.jsonl`, `plans/<id>/analysis_results/`) are not work.
   */
  readonly excludePrefixes?: readonly string[];
}

/**
 * Reads where the work in `directory` is, from git itself: the checkout's top level, branch,
 * head, upstream and whether the head is pushed, and the uncommitted paths
 * (`git status --porcelain=v1 -z --untracked-files=all`).
 *
 * @throws GitStateError when `directory` is not in a repository or the repository has no commit.
 */
export function readWorkState(directory: string, options: ReadWorkStateOptions = {}): WorkState {
  const checkout = checkoutRoot(directory);
  const root = repositoryRoot(checkout);
  const head = git(checkout, ['rev-parse', '--verify', 'HEAD']).trim();
  const symbolic = tryGit(checkout, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  const branch = symbolic.status === 0 ? symbolic.stdout.trim() : 'HEAD';
  const upstreamProbe = tryGit(checkout, [
    'rev-parse',
    '--abbrev-ref',
    '--symbolic-full-name',
    '@{upstream}',
  ]);
  const upstream = upstreamProbe.status === 0 ? upstreamProbe.stdout.trim() : null;
  const pushed =
    upstream !== null &&
    tryGit(checkout, ['merge-base', '--is-ancestor', 'HEAD', '@{upstream}']).status === 0;
  const origin = tryGit(checkout, ['config', '--get', 'remote.origin.url']);
  const repository =
    origin.status === 0 && origin.stdout.trim() !== '' ? stripRemoteCredentials(origin.stdout.trim()) : root;
  const status = git(checkout, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  const excluded = (options.excludePrefixes ?? []).map((p) => p.replace(/^\/+/, ''));
  const paths = new Set<string>();
  const fields = status.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i]!;
    if (entry.length < 4) continue;
    const code = entry.slice(0, 2);
    paths.add(entry.slice(3));
    // Renames and copies carry the source path as the next field.
    if (code.includes('R') || code.includes('C')) {
      const from = fields[i + 1];
      if (from !== undefined && from !== '') paths.add(from);
      i += 1;
    }
  }
  const uncommitted = [...paths]
    .filter((path) => !excluded.some((prefix) => path === prefix || path.startsWith(prefix)))
    .sort();
  return { repository, repositoryRoot: root, checkout, branch, head, upstream, pushed, uncommitted };
}
