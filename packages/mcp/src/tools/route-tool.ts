import { dryRunJson, routeTask } from '@bullswarm/dispatch/routing';
import { formatTime } from '@bullswarm/pacing/internal';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from '../mcp-options';
import { jsonResult, toolError } from '../tool-result';
import { checkTask, taskShape } from './task-args';

/**
 * `route`: the dry-run pick for a lane and effort (optionally pinned or filtered), as
 * `bullswarm run --dry-run --json` prints it: the reason line, the forecast, the candidate rows
 * in preference order and every rejected pool. Nothing is spawned or written. The caller (the agent
 * CLI that launched the server) is left out, as in `run`.
 */
export function registerRouteTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'route',
    {
      title: 'bullswarm route (dry run)',
      description:
        'Which pool would take a task now, and why: the reason line, the forecast, every candidate row in preference order and each rejected pool with its reason. Spawns nothing. The same object as the JSON of a dry `bullswarm run`.',
      inputSchema: taskShape,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ctx.tracked(async (args) => {
      try {
        const runtime = await ctx.openRuntime();
        try {
          const task = checkTask(runtime, args);
          const { decision } = await routeTask(runtime, { ...task, kind: 'single-run' });
          const lines =
            decision.poolId === null
              ? [
                  `NO POOL ${decision.reason}`,
                  ...(decision.backAt === undefined ? [] : [`back at ${formatTime(decision.backAt)}`]),
                ]
              : [
                  `OK [${runtime.label(decision.poolId)}] ${decision.reason}`,
                  ...(decision.forecastLine ? [decision.forecastLine] : []),
                ];
          return jsonResult(lines, dryRunJson(decision, runtime, task.tier));
        } finally {
          await runtime.close();
        }
      } catch (error) {
        return toolError(error, ctx.options.env, ctx.options.log);
      }
    }),
  );
}
