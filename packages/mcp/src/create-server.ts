import { createRedactor } from '@bullswarm/connectors/redact';
import { openRuntime } from '@bullswarm/dispatch/routing';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { BullswarmMcpOptions, ToolContext } from './mcp-options';
import { registerPoolsTool } from './tools/pools-tool';
import { registerRouteTool } from './tools/route-tool';
import { registerRunTool } from './tools/run-tool';
import { registerSwarmTools } from './tools/swarm-tools';
import { registerWorkflowTools } from './tools/workflow-tools';

/** The tools `bullswarm mcp` serves, in the order it lists them. */
export const MCP_TOOL_NAMES = [
  'pools',
  'route',
  'run',
  'workflow_start',
  'workflow_status',
  'workflow_resume',
  'capacity',
  'notify',
  'inbox',
] as const;

/** A server and what its owner does with it at the end. */
export interface BullswarmMcpServer {
  readonly server: McpServer;
  /**
   * Stops every run (their agents are ended and their ledger entries released through dispatch's
   * abort path; workflow runs stop as interrupted) and resolves once every tool call and
   * background run has settled.
   */
  shutdown(): Promise<void>;
}

/**
 * The bullswarm MCP server (not yet connected): the tools of {@link MCP_TOOL_NAMES} over the
 * home of `options`. Each call opens the runtime afresh (config files are read at every call, as
 * each CLI command reads them), so a pool added while the server runs is seen by the next call.
 */
export function createBullswarmMcpServer(options: BullswarmMcpOptions): BullswarmMcpServer {
  const server = new McpServer(
    { name: 'bullswarm', version: options.version },
    {
      capabilities: { tools: {} },
      instructions:
        'bullswarm routes coding-agent tasks across the subscriptions on this machine, to the pool whose quota is most at risk of expiring unspent. Hand a subtask to `run` (lane analyze, build or chore); see the pick first with `route`; `pools` shows every pool. The agent that launched this server is never picked for its own runs.',
    },
  );
  const stop = new AbortController();
  const pending = new Set<Promise<unknown>>();
  const warned = new Set<string>();
  // Every tool result leaves through this (token shapes; the server's environment's credential
  // values and those of every pool of every runtime a tool opened).
  const redactor = createRedactor([options.env]);
  const track = (work: Promise<unknown>): void => {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    pending.add(settled);
    void settled.then(() => pending.delete(settled));
  };
  const ctx: ToolContext = {
    options,
    shutdown: stop.signal,
    keep: track,
    tracked(handler) {
      return (...args) => {
        const work = handler(...args).then((result) => redactor.value(result));
        track(work);
        return work;
      };
    },
    async openRuntime(open = {}) {
      const runtime = await openRuntime({
        ...(options.home === undefined ? {} : { home: options.home }),
        env: options.env,
        userHome: options.userHome,
        projectDir: options.cwd,
        ...(open.createStore ? { createStore: true } : {}),
      });
      for (const pool of runtime.state.pools) if (pool.env !== undefined) redactor.addEnv(pool.env);
      // As the CLI warns on every command, once per server here (stderr; stdout is the protocol's).
      const lines = [
        ...runtime.connectorLoad.warnings.map((w) => `warning: ${w}`),
        ...runtime.connectorLoad.errors.map(
          (e) => `warning: connector not loaded: ${e.message} (the other connectors are loaded)`,
        ),
      ];
      for (const line of lines) {
        if (warned.has(line)) continue;
        warned.add(line);
        options.log(line);
      }
      return runtime;
    },
  };

  registerPoolsTool(server, ctx);
  registerRouteTool(server, ctx);
  registerRunTool(server, ctx);
  registerWorkflowTools(server, ctx);
  registerSwarmTools(server, ctx);

  return {
    server,
    async shutdown() {
      stop.abort();
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
