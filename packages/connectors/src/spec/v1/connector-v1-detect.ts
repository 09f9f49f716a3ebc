/** What {@link ConnectorV1.detect} may use to look around; every IO goes through it. */
export type ConnectorV1DetectContext = {
  /** The PATH to search (defaults to `process.env.PATH` in the caller). */
  readonly path: string;
  /** The user's home directory (`{{userHome}}`). */
  readonly userHome: string;
  /** `$BULLSWARM_HOME` (`{{home}}`). */
  readonly bullswarmHome: string;
};

/** One account found on this machine. */
export type ConnectorV1DetectedAccount = {
  /** The account name (`default`, or e.g. `acme` for `~/.claude-acme`). */
  readonly account: string;
  /** The directory or file that revealed it. */
  readonly evidencePath: string;
};

/** What detection found. */
export type ConnectorV1Detection = {
  /** The absolute path of the CLI binary, or undefined when it is not on PATH. */
  readonly binaryPath?: string;
  readonly accounts: readonly ConnectorV1DetectedAccount[];
};
