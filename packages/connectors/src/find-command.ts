import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { resolveBundledCommand } from './bundled-command';

/** Where the program a pool runs was found, or why it cannot be run. */
export type CommandLookup =
  | { readonly found: true; readonly command: string; readonly path: string }
  | { readonly found: false; readonly command: string; readonly problem: string };

/** How long one lookup is reused within a process (ms): a CLI installed meanwhile is seen soon. */
export const COMMAND_LOOKUP_TTL_MS = 30_000;

const cache = new Map<string, { readonly at: number; readonly lookup: CommandLookup }>();

/** Forgets every cached lookup (tests that install or remove a program between two lookups). */
export function clearCommandLookupCache(): void {
  cache.clear();
}

/** `ok`, or why `path` cannot be run: it does not exist, is a directory, or is not executable. */
function checkFile(path: string): 'ok' | 'missing' | 'directory' | 'not-executable' {
  try {
    if (statSync(path).isDirectory()) return 'directory';
  } catch {
    return 'missing';
  }
  try {
    accessSync(path, constants.X_OK);
    return 'ok';
  } catch {
    return 'not-executable';
  }
}

function lookUp(command: string, searchPath: string): CommandLookup {
  const bundled = resolveBundledCommand(command);
  if (bundled.args.length > 0) {
    const script = bundled.args[0]!;
    return checkFile(script) === 'missing'
      ? { found: false, command, problem: `${command} is not built (${script} does not exist)` }
      : { found: true, command, path: script };
  }
  if (command.includes('/')) {
    const state = checkFile(command);
    if (state === 'ok') return { found: true, command, path: command };
    const problem =
      state === 'missing'
        ? `${command} does not exist`
        : state === 'directory'
          ? `${command} is a directory, not a program`
          : `${command} is not executable`;
    return { found: false, command, problem };
  }
  for (const directory of searchPath.split(delimiter)) {
    if (directory === '' || !isAbsolute(directory)) continue;
    const candidate = join(directory, command);
    if (checkFile(candidate) === 'ok') return { found: true, command, path: candidate };
  }
  return { found: false, command, problem: `${command} not on PATH` };
}

/**
 * Finds the program a pool runs without starting it: a bundled bin name (`bullswarm-sim`) is its
 * built script, a name with a `/` is that file, any other name is looked up on `searchPath` (the
 * PATH the agent is spawned with; relative PATH entries are skipped, as a shell would resolve them
 * against a directory bullswarm does not control). Only an executable file counts.
 *
 * Synchronous and cheap (a few `stat` calls); a lookup is reused for {@link COMMAND_LOOKUP_TTL_MS}
 * within a process, so `pools` and every pick pay for it once.
 *
 * Problems: `codex not on PATH`, `/opt/codex/bin/codex does not exist`, `… is not executable`,
 * `… is a directory, not a program`.
 */
export function findCommand(command: string, searchPath: string, now: number = Date.now()): CommandLookup {
  const key = `${searchPath}\0${command}`;
  const hit = cache.get(key);
  if (hit !== undefined && now - hit.at < COMMAND_LOOKUP_TTL_MS && now >= hit.at) return hit.lookup;
  const lookup = lookUp(command, searchPath);
  cache.set(key, { at: now, lookup });
  return lookup;
}
