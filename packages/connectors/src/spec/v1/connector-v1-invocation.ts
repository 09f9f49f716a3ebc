/**
 * A fully resolved command line: what dispatch spawns, without a shell.
 *
 * `env` holds only the variables the connector sets; dispatch merges it over the inherited
 * environment (after removing the caller's {@link ConnectorV1.callerEnv} markers).
 */
export type ConnectorV1Invocation = {
  /** An absolute path, or a bare name looked up on PATH. Never a shell string. */
  readonly command: string;
  /** Arguments, one element each, never joined or quoted. */
  readonly args: readonly string[];
  /** Variables to set for the process (account selection, connector env, extra env). */
  readonly env: Readonly<Record<string, string>>;
  /** The working directory to spawn in. */
  readonly cwd: string;
  /** Text to write to the process's stdin, then close it; undefined leaves stdin empty (closed). */
  readonly stdin?: string;
};
