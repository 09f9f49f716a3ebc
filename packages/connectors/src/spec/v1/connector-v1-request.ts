/**
 * What dispatch hands a connector to build one invocation of its agent CLI.
 *
 * Everything is data: the connector never reads `process.env` or the clock to build an
 * invocation, so the same request always gives the same command line.
 */
export type ConnectorV1Request = {
  /** The task prompt, passed as an argument or on stdin (never through a shell). */
  readonly prompt: string;
  /** The model to run; undefined runs the CLI's own default model. */
  readonly model?: string;
  /** The working directory of the agent process (absolute). */
  readonly cwd: string;
  /** Extra directories the agent may read or write (absolute), one `addDir` argument each. */
  readonly addDirs: readonly string[];
  /**
   * The pool's account name (`default` for the connector's default account). Used by the
   * `{{account}}` template.
   */
  readonly account?: string;
  /**
   * The environment that selects the pool's account, e.g. `{CLAUDE_CONFIG_DIR: '/home/me/.claude-acme'}`.
   * Usually the output of {@link ConnectorV1.accountEnv}.
   */
  readonly accountEnv: Readonly<Record<string, string>>;
  /** More variables for the process (e.g. `BULLSWARM_POOL`); they win over the account env. */
  readonly extraEnv?: Readonly<Record<string, string>>;
  /** `$BULLSWARM_HOME` (absolute); the `{{home}}` template. */
  readonly bullswarmHome: string;
  /** The user's home directory (absolute); the `{{userHome}}` template. */
  readonly userHome?: string;
};
