import { resolve } from 'node:path';
import type { BullswarmRuntime } from '@bullswarm/dispatch/routing';
import type { PlannedStep, WorkflowProgram } from '@bullswarm/workflow';
import { CliExit } from '../../cli/cli-errors';
import { type CommandContext, openCliRuntime, printJson } from '../../cli/command-context';
import { EXIT } from '../../cli/exit-codes';
import { parseWholeNumber } from '../../parse/parse-options';
import {
  driveRun,
  parseInputs,
  printProblems,
  WORKER_POOL_FLAG,
  withCliErrors,
} from './workflow-cli-support';

/** Options of `bullswarm workflow goal`. */
export interface WorkflowGoalOptions {
  readonly input?: readonly string[];
  readonly workerPool?: string;
  readonly concurrency?: string;
  readonly retryAttempts?: string;
  readonly cwd?: string;
  readonly dryRun?: boolean;
  readonly json?: boolean;
}

/**
 * Loads a program file and validates it against the home's pools, providers and tiers; prints
 * every problem and exits 2 when it is not runnable.
 */
export async function loadProgramForHome(
  context: CommandContext,
  runtime: BullswarmRuntime,
  file: string,
  json: boolean,
  retryAttempts?: number,
): Promise<{ program: WorkflowProgram; filePath: string }> {
  const { validateProgramFile, homeValidationNames } = await import('@bullswarm/workflow');
  const result = validateProgramFile(resolve(context.io.cwd, file), {
    ...homeValidationNames(runtime),
    ...(retryAttempts === undefined ? {} : { retryAttempts }),
  });
  if (!result.ok) {
    if (json) printJson(context, { ok: false, file: result.filePath, problems: result.problems });
    else await printProblems(context, result.filePath, result.problems);
    throw new CliExit(EXIT.usage);
  }
  return { program: result.program, filePath: result.filePath };
}

/**
 * `bullswarm workflow goal <program>`: validates the program, then runs it — or with `--dry-run`
 * prints, for each step, the pool routing gives it now and the reason line (nothing spawned).
 */
export async function workflowGoalCommand(
  context: CommandContext,
  file: string,
  options: WorkflowGoalOptions,
): Promise<void> {
  const inputs = parseInputs(options.input);
  // The bound of settings.concurrency, checked before anything else (a dry run included): one
  // message, "from 1 to 64", for 0, 65 and anything not a whole number.
  const concurrency =
    options.concurrency === undefined
      ? undefined
      : parseWholeNumber(
          options.concurrency,
          '--concurrency',
          1,
          (await import('@bullswarm/workflow')).MAX_CONCURRENCY,
        );
  const retryAttempts =
    options.retryAttempts === undefined
      ? undefined
      : parseWholeNumber(
          options.retryAttempts,
          '--retry-attempts',
          0,
          (await import('@bullswarm/workflow')).MAX_RETRY_ATTEMPTS,
        );
  const cwd = resolve(context.io.cwd, options.cwd ?? '.');
  const runtime = await openCliRuntime(context, { createStore: !options.dryRun });
  try {
    const { program, filePath } = await loadProgramForHome(
      context,
      runtime,
      file,
      options.json === true,
      retryAttempts,
    );
    const workflow = await import('@bullswarm/workflow');
    if (options.dryRun) {
      const planned = await withCliErrors(() =>
        workflow.planWorkflow({
          runtime,
          program,
          inputs,
          ...(options.workerPool === undefined
            ? {}
            : { workerPool: options.workerPool, pinShownAs: WORKER_POOL_FLAG }),
        }),
      );
      printPlan(context, program, planned, options.json === true);
      if (planned.some((step) => step.poolId === null)) throw new CliExit(EXIT.failed);
      return;
    }
    await driveRun(context, runtime, options.json === true, (runOptions) =>
      workflow.startWorkflow({
        ...runOptions,
        runtime,
        program,
        programFile: filePath,
        inputs,
        cwd,
        ...(options.workerPool === undefined ? {} : { workerPool: options.workerPool }),
        ...(concurrency === undefined ? {} : { concurrency }),
      }),
    );
  } finally {
    await runtime.close();
  }
}

function printPlan(
  context: CommandContext,
  program: WorkflowProgram,
  planned: readonly PlannedStep[],
  json: boolean,
): void {
  if (json) {
    printJson(context, { dryRun: true, name: program.name ?? null, steps: planned });
    return;
  }
  const out = context.io.out;
  out(`bullswarm workflow · ${program.name ?? 'unnamed'} · dry run (nothing is spawned)\n`);
  const width = Math.max(...planned.map((step) => step.id.length));
  program.levels.forEach((ids, index) => {
    out(`▐ level ${index + 1}/${program.levels.length} · ${ids.join(', ')}\n`);
    for (const step of planned.filter((entry) => entry.level === index + 1)) {
      const pick = step.poolId === null ? `NO POOL ${step.reason}` : `OK [${step.poolLabel}] ${step.reason}`;
      out(`  ${step.id.padEnd(width)}  ${pick}\n`);
      if (step.items) out(`  ${' '.repeat(width)}  fan-out: ${step.items}\n`);
      for (const note of step.notes) out(`  ${' '.repeat(width)}  note: ${note}\n`);
    }
  });
}
