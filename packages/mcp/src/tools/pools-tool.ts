import { buildPoolSnapshots, buildPoolViews } from '@bullswarm/dispatch/routing';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from '../mcp-options';
import { jsonResult, toolError } from '../tool-result';

/**
 * `pools`: every pool with its pace, windows, state, in-flight count and label — the object
 * `bullswarm pools --json` prints (`{ now, pools }`, the rows from dispatch's `buildPoolViews`).
 * Read-only; it reads the meters (a provider's usage endpoint for a metered pool), so open-world.
 */
export function registerPoolsTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'pools',
    {
      title: 'bullswarm pools',
      description:
        'Every pool (agent CLI + account) bullswarm routes to: pace (surplus of the pacing window), meter windows, state (ready, expiring-soon, near-5h-limit, burst-gated, disabled, unavailable), in-flight count and label. The same rows as the JSON of `bullswarm pools`.',
      inputSchema: {},
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ctx.tracked(async () => {
      try {
        const runtime = await ctx.openRuntime();
        try {
          const snapshots = await buildPoolSnapshots(runtime);
          const pools = buildPoolViews(snapshots, {
            inflightPenaltyPct: runtime.state.config.inflightPenaltyPct,
          });
          const lines = pools.map(
            (p) =>
              `${p.poolLabel}: ${p.state}, pace ${p.pace === null ? '-' : p.pace.toFixed(1)}, ${p.inflight} in flight`,
          );
          return jsonResult(
            lines.length > 0
              ? lines
              : ['no pools yet: run `bullswarm setup`, or `bullswarm pools add <connector>[:<account>]`'],
            { now: new Date(snapshots.now).toISOString(), pools },
          );
        } finally {
          await runtime.close();
        }
      } catch (error) {
        return toolError(error, ctx.options.env, ctx.options.log);
      }
    }),
  );
}
