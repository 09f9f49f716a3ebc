import {
  BUNDLED_COMMANDS,
  type ConnectorV1,
  type ConnectorV1Invocation,
  resolveBundledCommand,
} from '@bullswarm/connectors';
import { BULLSWARM_HOME } from '@bullswarm/store';
import { BULLSWARM_POOL } from '../snapshots/detect-caller';
import { buildChildEnv } from './child-env';

/** Which pool's agent runs, as whom: what an attempt and the free-model probe share. */
export interface AgentLaunchOptions {
  readonly connector: ConnectorV1;
  /** The pool id; set as `BULLSWARM_POOL` for the agent. */
  readonly poolId: string;
  /** The pool's account (`{{account}}`); default `default`. */
  readonly account?: string;
  /** The environment that selects the pool's account (see `PoolDetail.accountEnv`). */
  readonly accountEnv: Readonly<Record<string, string>>;
  /** `$BULLSWARM_HOME` (`{{home}}`); set as `BULLSWARM_HOME` for the agent. */
  readonly bullswarmHome: string;
  readonly userHome?: string;
  /** The parent environment the agent inherits (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Caller markers removed from the inherited environment; default this connector's `callerEnv`.
   * `dispatchTask` passes the markers of every loaded connector.
   */
  readonly callerMarkers?: readonly string[];
  /** More variables for the agent (on top of the account env; `BULLSWARM_POOL` always wins). */
  readonly extraEnv?: Readonly<Record<string, string>>;
  /**
   * The pool's own agent CLI (`pools add --command`: a path or a name on PATH), run instead of the
   * connector's command with the connector's arguments. A bundled name (`bullswarm-sim`) resolves
   * as in a manifest.
   */
  readonly command?: string;
}

/** What the agent is asked to do, and where. */
export interface AgentTask {
  readonly prompt: string;
  /** The model; null or undefined runs the CLI's default. */
  readonly model?: string | null;
  /** The agent's working directory (absolute). */
  readonly cwd: string;
  readonly addDirs: readonly string[];
}

/** One agent process to start. */
export interface AgentLaunch {
  readonly invocation: ConnectorV1Invocation;
  /** The complete environment of the process (see `buildChildEnv`). */
  readonly env: Record<string, string>;
}

/**
 * The connector's command line for `task` on the pool, and the agent's complete environment: the
 * parent's without any caller marker or `BULLSWARM_POOL`, then the connector env, the account env,
 * `BULLSWARM_HOME` (so the agent's own bullswarm commands — `capacity --self`, `notify`, `inbox`
 * — use the home that launched it), `extraEnv`, and `BULLSWARM_POOL=<pool>`. Every agent bullswarm
 * starts, an attempt or a probe, is launched from here.
 *
 * @throws what the connector's `buildInvocation` throws (e.g. a template it cannot render)
 */
export function buildAgentLaunch(options: AgentLaunchOptions, task: AgentTask): AgentLaunch {
  const invocation = options.connector.buildInvocation({
    prompt: task.prompt,
    ...(task.model === undefined || task.model === null ? {} : { model: task.model }),
    cwd: task.cwd,
    addDirs: task.addDirs,
    ...(options.account === undefined ? {} : { account: options.account }),
    accountEnv: options.accountEnv,
    extraEnv: {
      [BULLSWARM_HOME]: options.bullswarmHome,
      ...(options.extraEnv ?? {}),
      [BULLSWARM_POOL]: options.poolId,
    },
    bullswarmHome: options.bullswarmHome,
    ...(options.userHome === undefined ? {} : { userHome: options.userHome }),
  });
  const env = buildChildEnv(
    options.env ?? process.env,
    invocation.env,
    options.callerMarkers ?? options.connector.callerEnv,
  );
  return {
    invocation: options.command === undefined ? invocation : withCommand(invocation, options.command),
    env,
  };
}

/**
 * The invocation with `command` as the program: the connector's arguments are kept, without the
 * script path a bundled command (`node …/sim-cli.js`) put in front of them.
 */
function withCommand(invocation: ConnectorV1Invocation, command: string): ConnectorV1Invocation {
  const bundledScripts = new Set(Object.values(BUNDLED_COMMANDS));
  const args =
    invocation.command === process.execPath && bundledScripts.has(invocation.args[0] ?? '')
      ? invocation.args.slice(1)
      : invocation.args;
  const resolved = resolveBundledCommand(command);
  return { ...invocation, command: resolved.command, args: [...resolved.args, ...args] };
}
