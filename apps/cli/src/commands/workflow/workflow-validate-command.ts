import { resolve } from 'node:path';
import { CliExit } from '../../cli/cli-errors';
import { type CommandContext, openCliRuntime, printJson } from '../../cli/command-context';
import { EXIT } from '../../cli/exit-codes';
import { printProblems } from './workflow-cli-support';

/**
 * `bullswarm workflow validate <program>`: every problem with its JSON path (exit 2), checked
 * against the home's pools, providers and tiers when the home exists (lanes always).
 */
export async function workflowValidateCommand(
  context: CommandContext,
  file: string,
  options: { readonly json?: boolean },
): Promise<void> {
  const { validateProgramFile, homeValidationNames } = await import('@bullswarm/workflow');
  const runtime = await openCliRuntime(context);
  let names: ReturnType<typeof homeValidationNames> | undefined;
  try {
    names = runtime.home.exists() ? homeValidationNames(runtime) : undefined;
  } finally {
    await runtime.close();
  }
  const result = validateProgramFile(resolve(context.io.cwd, file), names ?? {});
  if (options.json) {
    printJson(context, {
      ok: result.ok,
      file: result.filePath,
      problems: result.problems,
      ...(result.ok ? { steps: result.program.steps.length, levels: result.program.levels.length } : {}),
    });
  } else if (result.ok) {
    const { steps, levels } = result.program;
    context.io.out(
      `ok: ${result.filePath} · ${steps.length} step${steps.length === 1 ? '' : 's'} in ${levels.length} level${levels.length === 1 ? '' : 's'}\n`,
    );
  } else {
    await printProblems(context, result.filePath, result.problems);
  }
  if (!result.ok) throw new CliExit(EXIT.usage);
}
