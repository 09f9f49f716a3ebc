import { isAbsolute, join, resolve } from 'node:path';
import {
  type DispatchEvent,
  dispatchTask,
  failedRunText,
  newSingleRunId,
  runResultJson,
  runtimeRedactor,
  startRunRecord,
} from '@bullswarm/dispatch';
import { checkDirectory, checkRetryAttempts } from '@bullswarm/dispatch/routing';
import { formatTime } from '@bullswarm/pacing/internal';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../mcp-options';
import { createProgress } from '../progress';
import { jsonResult, toolError, usageError } from '../tool-result';
import { checkTask, taskShape } from './task-args';

/**
 * `run`: one routed task (a one-step workflow, `single-run`), as `bullswarm run --json`: the
 * answer, the pool and its label, the reason line, the verdict kind, every attempt. While it runs,
 * a client that sent a `progressToken` gets progress notifications (each attempt's route line,
 * its end, throttle waits, and a heartbeat). A client's cancellation aborts dispatch's signal:
 * the agent's process group is stopped and its in-flight ledger entry released; the server's
 * shutdown does the same for every run.
 */
export function registerRunTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'run',
    {
      title: 'bullswarm run',
      description:
        'Hand a task to the pool with quota to spare: bullswarm routes it by pace (never to the agent that called it), runs that agent CLI on it and returns the answer, the pool, the reason line and the verdict kind (ok, quota, throttle, auth, process, stalled, empty, timeout, canceled, unavailable, no-eligible-pool). The agent works in `cwd` and may change files there. Sends progress while it runs; cancel the call to stop the agent.',
      inputSchema: {
        prompt: z.string().describe('the task, as you would give it to an agent'),
        ...taskShape,
        cwd: z
          .string()
          .optional()
          .describe("the agent's working directory (default: where the server was started)"),
        addDirs: z.array(z.string()).optional().describe('other directories the agent may use'),
        retryAttempts: z
          .number()
          .optional()
          .describe(
            'automatic retries after a crash, stall, sign-in failure or empty answer: 0 to 10 (default 1)',
          ),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    ctx.tracked(async (args, extra) => {
      const { env, log } = ctx.options;
      try {
        if (args.prompt.trim() === '') {
          return usageError('missing prompt: pass the task as the prompt argument');
        }
        const at = (path: string) => (isAbsolute(path) ? path : resolve(ctx.options.cwd, path));
        const cwd = checkDirectory(at(args.cwd ?? '.'), 'cwd');
        const addDirs = (args.addDirs ?? []).map((dir) => checkDirectory(at(dir), 'addDirs'));
        const retryAttempts =
          args.retryAttempts === undefined
            ? undefined
            : checkRetryAttempts(args.retryAttempts, 'retryAttempts');
        const runtime = await ctx.openRuntime({ createStore: true });
        try {
          const task = checkTask(runtime, args);
          const startedAt = runtime.clock();
          const runId = newSingleRunId(startedAt);
          const runDir = join(runtime.home.home, 'runs', runId);
          // runs/<runId>/run.json, as `bullswarm run` keeps it (the dashboard's Runs page).
          const recorder = startRunRecord({
            runId,
            lane: task.lane,
            tier: task.tier,
            startedAt,
            runDir,
            redact: runtimeRedactor(runtime),
            onWriteError: (file, error) => log(`warning: cannot write ${file}: ${error.message}`),
          });
          const progress = createProgress(extra, ctx.options.progressIntervalMs);
          const signal = AbortSignal.any([extra.signal, ctx.shutdown]);
          const onEvent = (event: DispatchEvent): void => {
            recorder.onEvent(event);
            if (event.type === 'attempt.started') {
              progress.running(`→ [${event.poolLabel}] ${event.reason}`, event.poolLabel);
            } else if (event.type === 'attempt.finished') {
              const next = event.kind === 'ok' ? '' : event.willRetry ? ' · retrying' : ' · no retry left';
              progress.send(`attempt ${event.attempt} finished ${event.kind}${next}`);
            } else if (event.type === 'throttle.backoff') {
              progress.send(`throttled: waiting ${Math.ceil(event.waitMs / 1000)}s on the same pool`);
            }
          };
          let result: Awaited<ReturnType<typeof dispatchTask>>;
          try {
            result = await dispatchTask(runtime, {
              action: 'run',
              prompt: args.prompt,
              lane: task.lane,
              tier: task.tier,
              cwd,
              addDirs,
              outputDir: runDir,
              kind: 'single-run',
              ...(task.pin ? { pin: task.pin } : {}),
              ...(task.route ? { route: task.route } : {}),
              ...(retryAttempts === undefined ? {} : { retryAttempts }),
              signal,
              onEvent,
            });
          } finally {
            progress.stop();
          }
          recorder.finish(result, runtime, runtime.clock());
          const json = runResultJson(result, runtime, { tier: task.tier, runId, runDir });
          if (result.ok) return jsonResult([result.answer ?? ''], json);
          const lines = [
            `FAILED [${json.poolLabel ?? 'no pool'}] ${failedRunText(result.kind, result.why ?? result.reason)}`,
          ];
          if (result.backAt !== undefined) lines.push(`back at ${formatTime(result.backAt)}`);
          if (json.runDir !== null) lines.push(`attempt files: ${json.runDir}`);
          if (result.kind === 'canceled') log(`bullswarm mcp: run ${runId} canceled`);
          return jsonResult(lines, json, true);
        } finally {
          await runtime.close();
        }
      } catch (error) {
        return toolError(error, env, log);
      }
    }),
  );
}
