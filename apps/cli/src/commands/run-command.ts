import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DispatchEvent, DispatchResult } from '@bullswarm/dispatch';
import type { BullswarmRuntime } from '@bullswarm/dispatch/routing';
import type { Lane, RouteDecision, RouteTask } from '@bullswarm/pacing';
import { DEFAULT_LANE_TIER, formatDurationMs, formatTime } from '@bullswarm/pacing/internal';
import { CliExit, CliUsageError } from '../cli/cli-errors';
import { readAll } from '../cli/cli-io';
import { type CommandContext, openCliRuntime, printJson } from '../cli/command-context';
import { EXIT } from '../cli/exit-codes';
import { formatCountdownMs } from '../output/format-seconds';
import { parseWaitDuration } from '../parse/parse-options';

/** Options of `bullswarm run`. */
export interface RunOptions {
  readonly lane?: string;
  readonly effort?: string;
  readonly promptFile?: string;
  readonly addDir?: readonly string[];
  readonly cwd?: string;
  readonly workerPool?: string;
  readonly retryAttempts?: string;
  readonly dryRun?: boolean;
  readonly json?: boolean;
  /** `--when-ready`: when no pool can take the task and a back-at is known, wait for it. */
  readonly whenReady?: boolean;
  /** `--max-wait <duration>`: the longest `--when-ready` waits (`3h`, `90m`). */
  readonly maxWait?: string;
  /** `--no-caller`: accepted and ignored (the caller is never a pool of its own run). */
  readonly caller?: boolean;
}

/** A checked `bullswarm run` command line. */
export interface RunPlan {
  readonly lane: Lane;
  readonly tier: string;
  readonly prompt: string;
  readonly cwd: string;
  readonly addDirs: readonly string[];
  readonly retryAttempts: number | undefined;
  readonly workerPool: string | undefined;
  /** `--when-ready`: the wait's bound (ms; undefined = until the back-at) and poll interval. */
  readonly whenReady?: { readonly maxWaitMs: number | undefined; readonly pollMs: number };
}

/**
 * The most back-ats one `run --when-ready` waits for. Each must be later than the one before (a
 * back-at that does not move ends the wait), and `--max-wait` bounds their sum.
 */
export const WHEN_READY_MAX_ROUNDS = 10;

/** Reads and checks everything on the command line before anything is opened. */
export async function planRun(
  context: CommandContext,
  words: readonly string[],
  options: RunOptions,
): Promise<RunPlan> {
  // The rules (and words) of a task are dispatch's, shared with the `run` tool of `bullswarm mcp`.
  const { checkDirectory, checkLane, checkRetryAttempts, checkTierName } = await import(
    '@bullswarm/dispatch/routing'
  );
  const lane = checkLane(options.lane, '--lane');
  const tier = checkTierName(options.effort ?? DEFAULT_LANE_TIER[lane], '--effort');
  let prompt: string;
  if (options.promptFile !== undefined) {
    if (words.length > 0) {
      throw new CliUsageError({
        message: 'give the prompt either as an argument or with --prompt-file, not both',
        flag: '--prompt-file',
      });
    }
    const file = resolve(context.io.cwd, options.promptFile);
    try {
      prompt = readFileSync(file, 'utf8');
    } catch (error) {
      throw new CliUsageError({
        message: `--prompt-file ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        flag: '--prompt-file',
      });
    }
  } else if (words.length === 1 && words[0] === '-') {
    prompt = await readAll(context.io.stdin);
  } else {
    prompt = words.join(' ');
  }
  if (prompt.trim() === '') {
    throw new CliUsageError({
      message: 'missing <prompt>: pass the task as an argument, "-" to read stdin, or --prompt-file <file>',
      flag: '<prompt>',
    });
  }
  if (options.maxWait !== undefined && !options.whenReady) {
    throw new CliUsageError({
      message: '--max-wait bounds --when-ready: add --when-ready',
      flag: '--max-wait',
    });
  }
  let whenReady: RunPlan['whenReady'];
  if (options.whenReady) {
    const maxWaitMs =
      options.maxWait === undefined ? undefined : parseWaitDuration(options.maxWait, '--max-wait');
    // BULLSWARM_WHEN_READY_POLL_SEC is checked here, before anything is opened or waited for.
    const { resolveWhenReadyPollMs } = await import('@bullswarm/dispatch');
    whenReady = { maxWaitMs, pollMs: resolveWhenReadyPollMs(context.io.env) };
  }
  const cwd = checkDirectory(resolve(context.io.cwd, options.cwd ?? '.'), '--cwd');
  const addDirs = (options.addDir ?? []).map((dir) =>
    checkDirectory(resolve(context.io.cwd, dir), '--add-dir'),
  );
  return {
    lane,
    tier,
    prompt,
    cwd,
    addDirs,
    retryAttempts:
      options.retryAttempts === undefined
        ? undefined
        : checkRetryAttempts(options.retryAttempts, '--retry-attempts'),
    workerPool: options.workerPool,
    ...(whenReady === undefined ? {} : { whenReady }),
  };
}

/**
 * `--worker-pool` naming the caller is refused (docs/routing.md, "The caller": the agent CLI that invoked
 * bullswarm is never a pool of its own run), before anything is opened or spawned.
 */
async function refuseCallerPin(runtime: BullswarmRuntime, ref: string, poolId: string): Promise<void> {
  const { callerProblem, describePools, detectCallerPools } = await import('@bullswarm/dispatch/routing');
  const caller = detectCallerPools(describePools(runtime), runtime.env).find((c) => c.poolId === poolId);
  if (caller === undefined) return;
  throw new CliUsageError({
    message: `--worker-pool ${ref}: ${callerProblem(caller)}; pin another pool or leave --worker-pool out`,
    flag: '--worker-pool',
    expected: 'a pool other than the caller',
  });
}

/** A short elapsed time for progress lines: `0.4s`, `12.0s`, then pacing's `2m`, `1h 5m`. */
export function formatElapsed(ms: number): string {
  const clamped = Math.max(0, ms);
  return clamped < 60_000 ? `${(clamped / 1000).toFixed(1)}s` : formatDurationMs(clamped);
}

/**
 * `bullswarm run --lane <lane> … <prompt>`: one routed run (a one-step workflow, `single-run`).
 *
 * - `--dry-run` routes with the live meters and prints `OK [<label>] <reason>` and the `forecast:`
 *   line (or `NO POOL <reason>`, exit 1); nothing is spawned and nothing is written.
 * - A real run prints `→ [<label>] <reason>` on stderr for each attempt, progress lines on a
 *   terminal, the answer on stdout; on failure `FAILED [<label>] <kind>: <why>` and, when known,
 *   `back at <time>`, exit 1. The attempt files are in `$BULLSWARM_HOME/runs/<runId>/`.
 * - `--when-ready [--max-wait <d>]`: when no pool can take the task and a back-at is known, first
 *   waits for it with the countdown of `workflow resume --when-ready` (see `waitUntilRoutable`).
 * - `--json` prints one object instead (and nothing on stderr but a `--when-ready` countdown): ok, kind, poolId, poolLabel, model,
 *   reason, why, backAt, answer, attempts, runDir, candidates (the decision's rows in preference
 *   order, each with its poolLabel), rejected.
 */
export async function runCommand(
  context: CommandContext,
  words: readonly string[],
  options: RunOptions,
): Promise<void> {
  const plan = await planRun(context, words, options);
  const runtime = await openCliRuntime(context, { createStore: !options.dryRun });
  try {
    const { checkKnownTier } = await import('@bullswarm/dispatch/routing');
    checkKnownTier(runtime, plan.tier, '--effort');
    const pin =
      plan.workerPool === undefined
        ? undefined
        : {
            poolId: runtime.home.resolvePoolRef(plan.workerPool),
            source: 'operator' as const,
            shownAs: '--worker-pool',
          };
    if (pin !== undefined) await refuseCallerPin(runtime, plan.workerPool!, pin.poolId);
    if (plan.whenReady !== undefined) {
      const task: RouteTask = {
        lane: plan.lane,
        tier: plan.tier,
        kind: 'single-run',
        ...(pin ? { pin } : {}),
      };
      await waitUntilRoutable(context, runtime, task, plan.whenReady, options);
    }
    if (options.dryRun) {
      await dryRun(context, runtime, plan, pin, options);
      return;
    }
    await realRun(context, runtime, plan, pin, options);
  } finally {
    await runtime.close();
  }
}

async function dryRun(
  context: CommandContext,
  runtime: BullswarmRuntime,
  plan: RunPlan,
  pin: RouteTask['pin'],
  options: RunOptions,
): Promise<void> {
  const { dryRunJson, routeTask } = await import('@bullswarm/dispatch/routing');
  const task: RouteTask = { lane: plan.lane, tier: plan.tier, kind: 'single-run', ...(pin ? { pin } : {}) };
  const { decision } = await routeTask(runtime, task);
  const ok = decision.poolId !== null;
  if (options.json) {
    printJson(context, dryRunJson(decision, runtime, plan.tier));
  } else if (ok) {
    context.io.out(`OK [${runtime.label(decision.poolId!)}] ${decision.reason}\n`);
    if (decision.forecastLine) context.io.out(`${decision.forecastLine}\n`);
  } else {
    printNoPool(context, decision);
  }
  if (!ok) throw new CliExit(EXIT.failed);
}

/**
 * `--when-ready`: while no pool can take the task and a back-at is known, waits for it (the shared
 * countdown of `workflow resume --when-ready`), re-reads the meters and routes again. A pool that
 * comes back early (a fresh meter reading, polled every `pollMs`) ends the wait early. Returns when
 * a pool can take the task — or when waiting cannot help (no back-at known, a back-at that did not
 * move, {@link WHEN_READY_MAX_ROUNDS} waits), leaving the run to report the no-pool as usual.
 * A back-at further away than `--max-wait` (less what was waited) exits 1 with the back-at; Ctrl-C
 * or SIGTERM during the wait exits 1 (`stopped before resuming`) with nothing dispatched.
 */
async function waitUntilRoutable(
  context: CommandContext,
  runtime: BullswarmRuntime,
  task: RouteTask,
  settings: NonNullable<RunPlan['whenReady']>,
  options: RunOptions,
): Promise<void> {
  const { dryRunJson, routeTask } = await import('@bullswarm/dispatch/routing');
  const { countdownToBackAt } = await import('../cli/back-at-countdown');
  let waitedMs = 0;
  let lastBackAt: number | undefined;
  for (let round = 1; ; round++) {
    // After a wait the meters are read from their sources again, not from the cache.
    const { decision } = await routeTask(runtime, task, round > 1 ? { forceMeters: true } : {});
    if (decision.poolId !== null) return;
    const backAt = decision.backAt;
    if (backAt === undefined) {
      context.io.err('--when-ready: no pool can take the task and no back-at is known; not waiting\n');
      return;
    }
    if (lastBackAt !== undefined && backAt <= lastBackAt) {
      context.io.err(
        `--when-ready: still no pool after the back-at ${formatTime(lastBackAt)}; not waiting again\n`,
      );
      return;
    }
    if (round > WHEN_READY_MAX_ROUNDS) {
      context.io.err(`--when-ready: waited for ${WHEN_READY_MAX_ROUNDS} back-ats; not waiting again\n`);
      return;
    }
    const waitMs = Math.max(0, backAt - runtime.clock());
    if (settings.maxWaitMs !== undefined && waitedMs + waitMs > settings.maxWaitMs) {
      const away = formatCountdownMs(waitMs);
      if (options.json) {
        // The one run --json shape (dispatch's RunJson): the decision that found no pool.
        printJson(context, {
          ...dryRunJson(decision, runtime, task.tier),
          dryRun: options.dryRun === true,
          why: `--max-wait ${options.maxWait}: the earliest back-at is ${away} away`,
        });
      } else {
        context.io.err(`NO POOL ${decision.reason}\n`);
        context.io.err(
          `--max-wait ${options.maxWait}: the earliest back-at is ${away} away, longer than the wait allowed; not waiting\n`,
        );
        context.io.err(`back at ${formatTime(backAt)}\n`);
      }
      throw new CliExit(EXIT.failed);
    }
    const started = Date.now();
    const outcome = await countdownToBackAt(context, {
      backAt,
      waitMs,
      pollMs: settings.pollMs,
      backEarly: async () => {
        const again = await routeTask(runtime, task);
        return again.decision.poolId === null ? null : runtime.label(again.decision.poolId);
      },
    });
    if (outcome === 'aborted') {
      context.io.err('\nstopped before resuming\n');
      throw new CliExit(EXIT.failed);
    }
    if (outcome === 'back-early') return;
    waitedMs += Date.now() - started;
    lastBackAt = backAt;
  }
}

function printNoPool(context: CommandContext, decision: RouteDecision): void {
  context.io.out(`NO POOL ${decision.reason}\n`);
  if (decision.backAt !== undefined) context.io.out(`back at ${formatTime(decision.backAt)}\n`);
}

async function realRun(
  context: CommandContext,
  runtime: BullswarmRuntime,
  plan: RunPlan,
  pin: RouteTask['pin'],
  options: RunOptions,
): Promise<void> {
  const { dispatchTask, failedRunText, newSingleRunId, runResultJson, runtimeRedactor, startRunRecord } =
    await import('@bullswarm/dispatch');
  const startedAt = runtime.clock();
  const runId = newSingleRunId(startedAt);
  const runDir = join(runtime.home.home, 'runs', runId);
  const quiet = options.json === true;
  const progress = !quiet && context.io.stderrIsTTY;
  const colors = context.errColors;

  // runs/<runId>/run.json: what the dashboard's Runs page reads, kept up to date as the run goes.
  const recorder = startRunRecord({
    runId,
    lane: plan.lane,
    tier: plan.tier,
    startedAt,
    runDir,
    redact: runtimeRedactor(runtime),
    onWriteError: (file, error) => {
      if (!quiet) context.io.err(`${colors.yellow('warning')}: cannot write ${file}: ${error.message}\n`);
    },
  });

  const onEvent = (event: DispatchEvent): void => {
    recorder.onEvent(event);
    if (quiet) return;
    if (event.type === 'attempt.started') {
      context.io.err(`${colors.cyan('→')} [${event.poolLabel}] ${event.reason}\n`);
      if (progress) {
        const model = event.model === null ? '' : ` · model ${event.model}`;
        const pid = event.pid === undefined ? '' : ` · pid ${event.pid}`;
        context.io.err(`${colors.dim(`  attempt ${event.attempt} started${model}${pid}`)}\n`);
      }
    } else if (event.type === 'attempt.finished' && progress) {
      const took = formatElapsed(event.endedAt - event.startedAt);
      const next = event.kind === 'ok' ? '' : event.willRetry ? ' · retrying' : ' · no retry left';
      const why = event.kind === 'ok' ? '' : `: ${event.why}`;
      context.io.err(
        `${colors.dim(`  attempt ${event.attempt} finished ${event.kind} after ${took}${why}${next}`)}\n`,
      );
    } else if (event.type === 'throttle.backoff' && progress) {
      context.io.err(
        `${colors.dim(`  throttled: waiting ${formatElapsed(event.waitMs)} on the same pool`)}\n`,
      );
    }
  };

  // Ctrl-C / SIGTERM cancel the run: dispatch stops the worker's process group and releases its
  // ledger entry, and the run ends as `canceled` (exit 1) with its FAILED line. The listeners stay
  // installed for the whole run (dispatch's own guard re-raises the signal when nobody listens).
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  let result: DispatchResult;
  try {
    result = await dispatchTask(runtime, {
      action: 'run',
      prompt: plan.prompt,
      lane: plan.lane,
      tier: plan.tier,
      cwd: plan.cwd,
      addDirs: plan.addDirs,
      outputDir: runDir,
      kind: 'single-run',
      ...(pin ? { pin } : {}),
      ...(plan.retryAttempts === undefined ? {} : { retryAttempts: plan.retryAttempts }),
      signal: abort.signal,
      onEvent,
    });
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }

  const poolLabel = result.poolId === null ? null : runtime.label(result.poolId);
  const hasAttempts = result.attempts.length > 0;
  recorder.finish(result, runtime, runtime.clock());

  if (options.json) {
    printJson(context, runResultJson(result, runtime, { tier: plan.tier, runId, runDir }));
  } else if (result.ok) {
    const answer = result.answer ?? '';
    context.io.out(answer.endsWith('\n') ? answer : `${answer}\n`);
    context.io.err(`${colors.dim(`attempt files: ${runDir}`)}\n`);
  } else {
    const text = failedRunText(result.kind, result.why ?? result.reason);
    context.io.err(`${colors.red('FAILED')} [${poolLabel ?? 'no pool'}] ${text}\n`);
    if (result.backAt !== undefined) context.io.err(`back at ${formatTime(result.backAt)}\n`);
    if (hasAttempts) context.io.err(`${colors.dim(`attempt files: ${runDir}`)}\n`);
  }
  if (!result.ok) throw new CliExit(EXIT.failed);
}
