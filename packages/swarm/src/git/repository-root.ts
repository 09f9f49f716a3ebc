import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { GitStateError } from '../errors/git-state-error';
import { git, tryGit } from './run-git';

/**
 * The repository a directory belongs to, as one absolute path shared by all its worktrees: the
 * main worktree (the directory holding the common `.git`). Lanes working in `git worktree`
 * checkouts of one repository therefore name the same plans.
 *
 * @throws GitStateError when `directory` is not inside a git repository.
 */
export function repositoryRoot(directory: string): string {
  const dir = resolve(directory);
  if (!existsSync(dir)) {
    throw new GitStateError({
      directory: dir,
      command: 'git rev-parse --git-common-dir',
      problem: 'no such directory',
    });
  }
  const common = git(dir, ['rev-parse', '--path-format=absolute', '--git-common-dir']).trim();
  if (basename(common) === '.git') return realpathSync(dirname(common));
  // A bare repository or a separate git dir: fall back to this checkout's top level.
  return realpathSync(checkoutRoot(dir));
}

/** The top level of the checkout (worktree) that contains `directory`. */
export function checkoutRoot(directory: string): string {
  return realpathSync(git(resolve(directory), ['rev-parse', '--show-toplevel']).trim());
}

/** Like {@link repositoryRoot}, but undefined when `directory` is not in a git repository. */
export function findRepositoryRoot(directory: string): string | undefined {
  const dir = resolve(directory);
  if (!existsSync(dir)) return undefined;
  const probe = tryGit(dir, ['rev-parse', '--is-inside-work-tree']);
  if (probe.status !== 0) return undefined;
  return repositoryRoot(dir);
}
