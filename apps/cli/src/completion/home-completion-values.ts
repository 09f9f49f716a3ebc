import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openHome, resolveHome } from '@bullswarm/store';
import type { CompletionValues } from './complete-command-line';

/** The most workflow run ids a completion lists (newest first). */
const MAX_RUNS = 50;

/**
 * The values completions look up in the home: `--home` as typed on the command line (relative to
 * `cwd`), else `$BULLSWARM_HOME`, else ~/.bullswarm. Reads state.json, pool-labels.json and the
 * names under workflows/, never the database; a home that is missing or does not validate gives
 * no values (a completion never fails loudly).
 */
export function homeCompletionValues(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): CompletionValues {
  const homeOf = (typed: string | undefined) =>
    typed === undefined || typed === '' ? resolveHome(env) : resolve(cwd, typed);
  return {
    pools(typed) {
      try {
        const home = openHome({ home: homeOf(typed), env });
        const labels = (() => {
          try {
            return home.readLabels().labels;
          } catch {
            return {} as Record<string, string>;
          }
        })();
        return home.readState().pools.map((pool) => ({ id: pool.id, label: labels[pool.id] }));
      } catch {
        return [];
      }
    },
    workflowRuns(typed) {
      try {
        const dir = join(homeOf(typed), 'workflows');
        return readdirSync(dir, { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
          .map((entry) => ({ name: entry.name, at: statSync(join(dir, entry.name)).mtimeMs }))
          .sort((a, b) => b.at - a.at)
          .slice(0, MAX_RUNS)
          .map((entry) => entry.name);
      } catch {
        return [];
      }
    },
  };
}
