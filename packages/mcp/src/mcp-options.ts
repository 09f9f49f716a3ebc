import type { BullswarmRuntime } from '@bullswarm/dispatch/routing';

/** How `bullswarm mcp` serves: which home, which environment, where runs start, where logs go. */
export interface BullswarmMcpOptions {
  /** The state home (`--home`); undefined → `$BULLSWARM_HOME`, else `~/.bullswarm`. */
  readonly home?: string;
  /**
   * The environment the server was launched with. Caller detection reads it (the agent CLI that
   * launched the server is never a pool of its own runs), as do `BULLSWARM_NOW`, the capacity
   * thresholds and the account environment of the agents.
   */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where a run's `cwd` (and a program path) resolves from, and the default working directory. */
  readonly cwd: string;
  /** The user's home directory (for connector discovery under `~`). */
  readonly userHome: string;
  /** One line to standard error (never stdout: stdout carries only protocol messages). */
  readonly log: (line: string) => void;
  /** The version the server reports in its `initialize` answer. */
  readonly version: string;
  /**
   * The preflight command a schema-bound workflow worker runs (`[node, <bullswarm entry>,
   * 'check-output-schema']`); default the workflow engine's `bullswarm check-output-schema`.
   */
  readonly checkOutputSchemaCommand?: readonly string[];
  /** Least time between two `run` progress notifications without news, ms (default 15 000). */
  readonly progressIntervalMs?: number;
}

/** What every tool works with: the options, the server's shutdown signal, and runtime access. */
export interface ToolContext {
  readonly options: BullswarmMcpOptions;
  /** Fires when the server shuts down (stdin closed, SIGINT/SIGTERM): every run ends. */
  readonly shutdown: AbortSignal;
  /** Opens the runtime for one tool call (fresh config files every call); close it after. */
  openRuntime(options?: { readonly createStore?: boolean }): Promise<BullswarmRuntime>;
  /** Work that outlives its tool call (a workflow run), awaited at shutdown. */
  keep(work: Promise<unknown>): void;
  /** A tool handler whose calls shutdown waits for (every tool registers through this). */
  tracked<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R>;
}
