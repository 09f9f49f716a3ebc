/**
 * `@bullswarm/mcp`: bullswarm as a Model Context Protocol server, so any agent (Claude Code,
 * Codex, Gemini CLI, opencode) can hand a task to the pool with quota to spare. `bullswarm mcp`
 * serves it on stdio.
 *
 * @packageDocumentation
 */
export { type BullswarmMcpServer, createBullswarmMcpServer, MCP_TOOL_NAMES } from './create-server';
export type { BullswarmMcpOptions, ToolContext } from './mcp-options';
export {
  DEFAULT_PROGRESS_INTERVAL_MS,
  PROGRESS_SEC,
  PROGRESS_SEC_RANGE,
  resolveProgressIntervalMs,
} from './progress';
export { type ServeStdioOptions, serveStdio } from './serve-stdio';

/** The version of this package (set at build time). */
export const VERSION: string = __BULLSWARM_VERSION__;
