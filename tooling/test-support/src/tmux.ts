import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The pseudo-terminal tests (the workflow live view, output to a terminal) run their command in a
 * real terminal through tmux. tmux is not part of "a fresh machine with Node and npm", so:
 *
 * - {@link findTmux} looks for it on `PATH` (it is `/usr/bin/tmux` on Debian, elsewhere under Homebrew);
 * - without it those tests are skipped, and vitest reports them as skipped, never as passed;
 * - with `BULLSWARM_REQUIRE_TMUX=1` (set by `.ci/run`, which installs tmux) they run anyway and
 *   fail when tmux is missing, so CI can never skip them silently.
 */
export function findTmux(searchPath: string = process.env.PATH ?? ''): string | undefined {
  for (const directory of searchPath.split(delimiter)) {
    if (directory === '') continue;
    const candidate = join(directory, 'tmux');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** `BULLSWARM_REQUIRE_TMUX=1`: the pseudo-terminal tests must run (see {@link findTmux}). */
export function tmuxRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.BULLSWARM_REQUIRE_TMUX === '1';
}

/** Whether the pseudo-terminal tests run here: tmux is on PATH, or it is required (and then they fail without it). */
export function runTmuxTests(): boolean {
  return findTmux() !== undefined || tmuxRequired();
}

/** The tmux binary, or an error saying how to get it (for tests that run because tmux is required). */
export function requireTmux(): string {
  const tmux = findTmux();
  if (tmux === undefined) {
    throw new Error(
      'tmux is required for the pseudo-terminal tests (BULLSWARM_REQUIRE_TMUX=1) but is not on PATH: install tmux (apt-get install tmux, brew install tmux)',
    );
  }
  return tmux;
}
