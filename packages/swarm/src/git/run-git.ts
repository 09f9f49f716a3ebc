import { execaSync } from 'execa';
import { GitStateError } from '../errors/git-state-error';

/** The result of one git command. */
export interface GitResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The command ran past its `timeoutMs` and was stopped. */
  readonly timedOut: boolean;
}

/** Options of {@link tryGit}. */
export interface TryGitOptions {
  /** More environment for git (e.g. `GIT_TERMINAL_PROMPT=0` for a command that talks to a remote). */
  readonly env?: Readonly<Record<string, string>>;
  /** Stop git past this many milliseconds (default: no limit; local commands end on their own). */
  readonly timeoutMs?: number;
}

/**
 * Runs `git <args>` in `cwd` (never through a shell) and returns its output. Git's own environment
 * variables that would redirect it (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`) are removed so
 * the answer is about `cwd`. Throws {@link GitStateError} only when git cannot start at all.
 */
export function tryGit(cwd: string, args: readonly string[], options: TryGitOptions = {}): GitResult {
  const env = { ...process.env, ...options.env };
  delete env.GIT_DIR;
  delete env.GIT_WORK_TREE;
  delete env.GIT_INDEX_FILE;
  const result = execaSync('git', [...args], {
    cwd,
    env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    stripFinalNewline: false,
    maxBuffer: 64 * 1024 * 1024,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
  });
  if (result.exitCode === undefined && result.signal === undefined && !result.timedOut) {
    const cause = result.cause as NodeJS.ErrnoException | undefined;
    throw new GitStateError({
      directory: cwd,
      command: `git ${args.join(' ')}`,
      problem:
        cause?.code === 'ENOENT' ? 'git is not installed or not on PATH' : String(result.originalMessage),
      ...(cause === undefined ? {} : { cause }),
    });
  }
  return {
    status: result.exitCode ?? null,
    stdout: result.stdout,
    stderr: result.stderr,
    timedOut: result.timedOut === true,
  };
}

/**
 * Runs `git <args>` in `cwd` and returns stdout; a non-zero exit is a {@link GitStateError} naming
 * the directory, the command and git's own message.
 */
export function git(cwd: string, args: readonly string[]): string {
  const result = tryGit(cwd, args);
  if (result.status !== 0) {
    throw new GitStateError({
      directory: cwd,
      command: `git ${args.join(' ')}`,
      problem: result.stderr.trim().split('\n')[0] || `exit code ${result.status}`,
    });
  }
  return result.stdout;
}
