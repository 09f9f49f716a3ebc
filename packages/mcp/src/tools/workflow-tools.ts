import { isAbsolute, resolve } from 'node:path';
import type { BullswarmRuntime } from '@bullswarm/dispatch/routing';
import {
  buildReport,
  homeValidationNames,
  loadRun,
  resumeWorkflow,
  startWorkflow,
  validateProgramFile,
  type WorkflowRunOptions,
  type WorkflowRunResult,
} from '@bullswarm/workflow';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../mcp-options';
import { jsonResult, toolError, usageError } from '../tool-result';
import { POOL_ARGUMENT } from './task-args';

type Drive = (options: Omit<WorkflowRunOptions, 'runtime'>) => Promise<WorkflowRunResult>;

/**
 * Drives a workflow run in the background of the server and resolves with its id as soon as the
 * run exists (its first event), or rejects with what stopped it before it began (an invalid
 * program, an unknown input, a run another process drives). The run keeps going after the tool
 * call has answered; the server's shutdown stops it (its running attempts are canceled and
 * `workflow_resume` picks them up). It owns `runtime` and closes it when the run ends.
 */
function driveInBackground(
  ctx: ToolContext,
  runtime: BullswarmRuntime,
  what: string,
  drive: Drive,
): Promise<string> {
  return new Promise<string>((resolveId, rejectStart) => {
    let started = false;
    const work = drive({
      ...(ctx.options.checkOutputSchemaCommand
        ? { checkOutputSchemaCommand: ctx.options.checkOutputSchemaCommand }
        : {}),
      pinShownAs: POOL_ARGUMENT,
      signal: ctx.shutdown,
      onEvent: (_event, state) => {
        if (started) return;
        started = true;
        resolveId(state.runId);
      },
    }).then(
      (result) => {
        if (!started) resolveId(result.runId);
        started = true;
        ctx.options.log(`bullswarm mcp: workflow ${result.runId} (${what}) ended: ${result.report.outcome}`);
      },
      (error: unknown) => {
        if (!started) rejectStart(error);
        else ctx.options.log(`bullswarm mcp: workflow (${what}) stopped: ${(error as Error).message}`);
      },
    );
    ctx.keep(work.finally(() => runtime.close()));
  });
}

/**
 * `workflow_start`, `workflow_status`, `workflow_resume`: start a program file, read a run's state
 * (the report of `bullswarm workflow show --json`), resume what has no ok verdict.
 */
export function registerWorkflowTools(server: McpServer, ctx: ToolContext): void {
  const { env, log } = ctx.options;
  const at = (path: string) => (isAbsolute(path) ? path : resolve(ctx.options.cwd, path));

  server.registerTool(
    'workflow_start',
    {
      title: 'bullswarm workflow start',
      description:
        'Start a workflow program file (bullswarm.workflow.program.v3) and return its run id at once; the steps run in the background, each routed by pacing. Follow it with workflow_status. As `bullswarm workflow goal`.',
      inputSchema: {
        program: z.string().describe('the program file (JSON), relative to where the server was started'),
        inputs: z.record(z.string(), z.string()).optional().describe('input values by name'),
        pool: z.string().optional().describe('pin every step to one pool (id or label)'),
        concurrency: z
          .number()
          .optional()
          .describe('steps in flight across the run: 1 to 64 (default: the program’s)'),
        cwd: z
          .string()
          .optional()
          .describe('the work tree the steps run in (default: where the server was started)'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    ctx.tracked(async (args) => {
      try {
        const runtime = await ctx.openRuntime({ createStore: true });
        let owned = false;
        try {
          const result = validateProgramFile(at(args.program), homeValidationNames(runtime));
          if (!result.ok) {
            const lines = result.problems.map((p) => `${result.filePath}: ${p.path}: ${p.message}`);
            lines.push(
              `${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} in ${result.filePath}`,
            );
            return jsonResult(lines, { ok: false, file: result.filePath, problems: result.problems }, true);
          }
          owned = true;
          const runId = await driveInBackground(ctx, runtime, 'start', (options) =>
            startWorkflow({
              ...options,
              runtime,
              program: result.program,
              programFile: result.filePath,
              inputs: args.inputs ?? {},
              cwd: at(args.cwd ?? '.'),
              ...(args.pool === undefined ? {} : { workerPool: args.pool }),
              ...(args.concurrency === undefined ? {} : { concurrency: args.concurrency }),
            }),
          );
          return jsonResult([`started ${runId}: follow it with workflow_status`], {
            runId,
            status: 'running',
          });
        } finally {
          if (!owned) await runtime.close();
        }
      } catch (error) {
        return toolError(error, env, log);
      }
    }),
  );

  server.registerTool(
    'workflow_status',
    {
      title: 'bullswarm workflow status',
      description:
        "A workflow run's state: its outcome, each step's status, verdict, pool and output. The same object as the JSON of `bullswarm workflow show`.",
      inputSchema: { runId: z.string().describe('the run id (wf-…), as workflow_start returned it') },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ctx.tracked(async (args) => {
      try {
        const runtime = await ctx.openRuntime();
        try {
          const loaded = loadRun(runtime.home.workflowsDir, args.runId);
          const report = buildReport(loaded.state, loaded.live);
          return jsonResult([`${args.runId}: ${report.outcome}`], {
            ...report,
            viewOnly: loaded.viewOnly,
            live: loaded.live,
          });
        } finally {
          await runtime.close();
        }
      } catch (error) {
        return toolError(error, env, log);
      }
    }),
  );

  server.registerTool(
    'workflow_resume',
    {
      title: 'bullswarm workflow resume',
      description:
        'Resume a workflow run: run again every step without an ok verdict, in the background; returns at once. As `bullswarm workflow resume`.',
      inputSchema: { runId: z.string().describe('the run id (wf-…)') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    ctx.tracked(async (args) => {
      try {
        if (args.runId.trim() === '')
          return usageError('missing runId: pass the run id (see workflow_status)');
        // The runtime is the run's: driveInBackground closes it when the drive settles.
        const runtime = await ctx.openRuntime({ createStore: true });
        const runId = await driveInBackground(ctx, runtime, 'resume', (options) =>
          resumeWorkflow({ ...options, runtime, runId: args.runId }),
        );
        return jsonResult([`resumed ${runId}: follow it with workflow_status`], { runId, status: 'running' });
      } catch (error) {
        return toolError(error, env, log);
      }
    }),
  );
}
