import { realpathSync } from 'node:fs';
import type { BullswarmRuntime } from '@bullswarm/dispatch/routing';
import type {
  LiveViewStream,
  ProgramProblem,
  RunState,
  WorkflowError,
  WorkflowEvent,
  WorkflowOptionProblem,
  WorkflowRunOptions,
  WorkflowRunResult,
} from '@bullswarm/workflow';
import { CliExit, CliUsageError } from '../../cli/cli-errors';
import { type CommandContext, printJson } from '../../cli/command-context';
import { EXIT } from '../../cli/exit-codes';

/**
 * WorkflowError kinds that are a usage or input error (exit 2): also `run-busy` — another process
 * drives the run, so this command may not (the message names that process).
 */
const USAGE_KINDS = new Set([
  'program-invalid',
  'program-unreadable',
  'missing-input',
  'unknown-input',
  'run-not-found',
  'run-view-only',
  'run-state-invalid',
  'unknown-step',
  'bad-option',
  'run-busy',
]);

/** The flag of `workflow goal` / `restart` that sets a pin, as reason lines name it. */
export const WORKER_POOL_FLAG = '--worker-pool';

/** The CLI's flag for each option of the workflow API (its errors name the API's option). */
const OPTION_FLAGS: Readonly<Record<WorkflowOptionProblem['name'], string>> = {
  workerPool: WORKER_POOL_FLAG,
  concurrency: '--concurrency',
  cwd: '--cwd',
  inputs: '--input',
};

/** A WorkflowError's message in the CLI's words: the option it names is said as its flag. */
function cliMessage(error: WorkflowError): string {
  if (error.kind === 'missing-input' && error.missingInputs.length > 0) {
    const s = error.missingInputs.length > 1 ? 's' : '';
    return `missing required input${s}: ${error.missingInputs.map((name) => `--input ${name}=<value>`).join(', ')}`;
  }
  const option = error.option;
  if (option === undefined) return error.message;
  return `${OPTION_FLAGS[option.name]}${option.value === undefined ? '' : ` ${option.value}`}: ${option.problem}`;
}

/** Maps a WorkflowError of a usage kind to a CliUsageError (exit 2); anything else is rethrown as is. */
export async function asCliError(error: unknown): Promise<unknown> {
  const { WorkflowError } = await import('@bullswarm/workflow');
  if (WorkflowError.isInstance(error) && USAGE_KINDS.has(error.kind)) {
    const flag = error.option === undefined ? undefined : OPTION_FLAGS[error.option.name];
    return new CliUsageError({
      message: cliMessage(error),
      cause: error,
      ...(flag === undefined ? {} : { flag }),
    });
  }
  return error;
}

/** Runs `body`, turning usage-kind WorkflowErrors into CliUsageErrors. */
export async function withCliErrors<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw await asCliError(error);
  }
}

/**
 * The preflight command a schema-bound worker runs: this very bullswarm (`node <its entry>
 * check-output-schema`), by absolute path, so it works without bullswarm on the worker's PATH.
 */
export function checkOutputSchemaPrefix(): readonly string[] {
  const entry = process.argv[1];
  if (entry === undefined) return ['bullswarm', 'check-output-schema'];
  let script = entry;
  try {
    script = realpathSync(entry);
  } catch {
    // keep the path as given
  }
  return [process.execPath, script, 'check-output-schema'];
}

/** `--input k=v` values → a record; a malformed or repeated key is a usage error naming it. */
export function parseInputs(values: readonly string[] | undefined): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const value of values ?? []) {
    const at = value.indexOf('=');
    if (at <= 0) {
      throw new CliUsageError({
        message: `--input "${value}" is not valid: expected <name>=<value>`,
        flag: '--input',
        expected: '<name>=<value>',
      });
    }
    const name = value.slice(0, at);
    if (Object.hasOwn(inputs, name)) {
      throw new CliUsageError({ message: `--input ${name} is given twice`, flag: '--input' });
    }
    inputs[name] = value.slice(at + 1);
  }
  return inputs;
}

/**
 * Prints a program's problems on stderr, as every command prints its errors: `error: <file>:
 * <path>: <message>` per problem, then how many. A problem with the file itself (missing, not
 * JSON) is one line that already names the file.
 */
export async function printProblems(
  context: CommandContext,
  file: string,
  problems: readonly ProgramProblem[],
): Promise<void> {
  const { isFileProblem } = await import('@bullswarm/workflow');
  const only = problems.length === 1 ? problems[0] : undefined;
  if (only !== undefined && isFileProblem(only)) {
    context.io.err(`error: ${only.message}\n`);
    return;
  }
  for (const problem of problems) context.io.err(`error: ${file}: ${problem.path}: ${problem.message}\n`);
  context.io.err(`${problems.length} problem${problems.length === 1 ? '' : 's'} in ${file}\n`);
}

/** The process's stdout as a live-view stream (its size read at every draw). */
export function stdoutViewStream(context: CommandContext): LiveViewStream {
  return {
    write: (text: string) => context.io.out(text),
    get columns() {
      return process.stdout.columns ?? 100;
    },
    get rows() {
      return process.stdout.rows ?? 40;
    },
  };
}

/** How a run's progress is shown: the live view (TTY), JSONL events (no TTY), or the report only (--json). */
export type RunOutputMode = 'view' | 'jsonl' | 'json';

/**
 * Drives a run (start, resume, restart) with its output: the live view redrawn in place on a
 * terminal, every event as a JSON line off a terminal, or only the report with `--json`. Ctrl-C /
 * SIGTERM stop the run (running attempts are canceled; `resume` picks them up). Exits 1 unless
 * every step is ok.
 */
export async function driveRun(
  context: CommandContext,
  runtime: BullswarmRuntime,
  json: boolean,
  drive: (options: Omit<WorkflowRunOptions, 'runtime'>) => Promise<WorkflowRunResult>,
): Promise<void> {
  const { TtyLiveView, jsonlEventPrinter, runPaths } = await import('@bullswarm/workflow');
  const mode: RunOutputMode = json ? 'json' : context.io.stdoutIsTTY ? 'view' : 'jsonl';
  const view =
    mode === 'view'
      ? new TtyLiveView(stdoutViewStream(context), {
          reportPath: (state: RunState) => runPaths(runtime.home.workflowsDir, state.runId).reportPath,
        })
      : undefined;
  const printEvent =
    mode === 'jsonl' ? jsonlEventPrinter({ write: (text) => context.io.out(text) }) : undefined;
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  let result: WorkflowRunResult;
  try {
    result = await withCliErrors(() =>
      drive({
        checkOutputSchemaCommand: checkOutputSchemaPrefix(),
        pinShownAs: WORKER_POOL_FLAG,
        signal: abort.signal,
        onEvent: (event: WorkflowEvent, state: Readonly<RunState>) => {
          view?.update(state as RunState);
          printEvent?.(event);
        },
      }),
    );
  } catch (error) {
    view?.stop();
    throw error;
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
  view?.finish(result.state);
  if (mode === 'json') printJson(context, result.report);
  if (mode !== 'view' && result.state.status === 'interrupted') {
    context.io.err(`interrupted: resume with \`bullswarm workflow resume ${result.runId}\`\n`);
  }
  if (result.exitCode !== 0) throw new CliExit(EXIT.failed);
}
