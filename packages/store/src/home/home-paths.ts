import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The environment variable naming the state home. */
export const BULLSWARM_HOME = 'BULLSWARM_HOME';

/** Where everything of one bullswarm home lives. */
export interface HomePaths {
  /** The home directory itself (`$BULLSWARM_HOME`, default `~/.bullswarm`). */
  readonly home: string;
  /** `state.json`: pools, assignments, config. */
  readonly statePath: string;
  /** `pool-labels.json`: display labels. */
  readonly labelsPath: string;
  /** `bullswarm.db`: the SQLite store (ledger, runs, meters, probes). */
  readonly dbPath: string;
  /** `workflows/`: one directory per workflow run. */
  readonly workflowsDir: string;
  /** `providers/`: connector manifests added to this home. */
  readonly providersDir: string;
}

/**
 * The state home directory: `$BULLSWARM_HOME` when set and non-empty (resolved against the
 * current directory when relative), else `.bullswarm` in the user's home directory (`$HOME` of
 * `env` when set, else the OS's idea of it).
 */
export function resolveHome(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const configured = env[BULLSWARM_HOME];
  if (configured !== undefined && configured.trim() !== '') return resolve(configured);
  const userHome = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  return join(userHome, '.bullswarm');
}

/** The paths of the home at `home` (nothing is created). */
export function homePaths(home: string): HomePaths {
  const root = resolve(home);
  return {
    home: root,
    statePath: join(root, 'state.json'),
    labelsPath: join(root, 'pool-labels.json'),
    dbPath: join(root, 'bullswarm.db'),
    workflowsDir: join(root, 'workflows'),
    providersDir: join(root, 'providers'),
  };
}

/** A home given as its paths or as its directory. */
export type HomeRef = HomePaths | string;

/** Normalise a {@link HomeRef} to its paths. */
export function toHomePaths(home: HomeRef): HomePaths {
  return typeof home === 'string' ? homePaths(home) : home;
}
