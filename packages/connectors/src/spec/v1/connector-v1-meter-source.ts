/**
 * Where a pool's meter numbers come from, as a connector manifest (or a pool's override in
 * state.json) declares it. `@bullswarm/meters` implements a reader per `type`.
 *
 * String fields may use the account templates `{{account}}` (the pool's account name, or
 * `default`), `{{home}}` ($BULLSWARM_HOME), `{{userHome}}` (the user's home directory) and
 * `{{env.NAME}}` (a variable of the pool's account environment, e.g. `{{env.CODEX_HOME}}`).
 */
export type ConnectorV1MeterSource =
  /** Codex CLI rollout files: the newest `rate_limits` under `<codexHome>/sessions/**\/rollout-*.jsonl`. */
  | { readonly type: 'codex-rollout'; readonly codexHome: string }
  /**
   * Claude Code: what the account exposes locally (see the meters package README for what is and
   * is not available); `configDir` is the account's CLAUDE_CONFIG_DIR.
   */
  | { readonly type: 'claude-code'; readonly configDir: string }
  /** Runs a command (no shell) that prints a bullswarm meter reading as JSON on stdout. */
  | {
      readonly type: 'command';
      readonly command: string;
      readonly args?: readonly string[];
      readonly timeoutMs?: number;
    }
  /** Reads a bullswarm meter reading from a JSON file (tests, demos, users' own exporters). */
  | { readonly type: 'file'; readonly path: string }
  /** Only readings set by hand (`bullswarm meters set`); unmetered until one is set. */
  | { readonly type: 'manual' }
  /** No reader: the pool is unmetered (surplus `-`, never assumed idle). */
  | { readonly type: 'none' };

export type ConnectorV1MeterSourceType = ConnectorV1MeterSource['type'];
