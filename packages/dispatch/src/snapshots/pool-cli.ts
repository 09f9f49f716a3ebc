import { type ConnectorV1, findCommand } from '@bullswarm/connectors';
import type { StatePool } from '@bullswarm/store';

/** The agent CLI a pool runs, and whether it is there. */
export interface PoolCli {
  /** What is run: the pool's own `command` (`pools add --command`), else the connector's. */
  readonly command: string;
  /** The file found (an absolute path); null when it was not found. */
  readonly path: string | null;
  /** Why it cannot be run (`codex not on PATH`, `/opt/codex does not exist`); absent when found. */
  readonly problem?: string;
}

/**
 * Finds the CLI of a pool without starting it (see `findCommand` of `@bullswarm/connectors`): the
 * pool's own command, else the connector's `command`, looked up on the PATH the agent would be
 * spawned with (the account env's PATH, else the process's). Undefined when the connector does not
 * say what it runs (a code connector without `command`): such a pool is not checked.
 *
 * A pool whose CLI is missing is unavailable: its snapshot detail carries the problem, routing
 * leaves it out, and a pin on it comes back at once with the problem (never an attempt).
 */
export function findPoolCli(
  connector: Pick<ConnectorV1, 'command'>,
  pool: Pick<StatePool, 'command'>,
  accountEnv: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
): PoolCli | undefined {
  const command = pool.command ?? connector.command;
  if (command === undefined) return undefined;
  const lookup = findCommand(command, accountEnv.PATH ?? env.PATH ?? '');
  return lookup.found ? { command, path: lookup.path } : { command, path: null, problem: lookup.problem };
}
