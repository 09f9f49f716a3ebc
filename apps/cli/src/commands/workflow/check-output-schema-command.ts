import { CliExit } from '../../cli/cli-errors';
import type { CommandContext } from '../../cli/command-context';
import { EXIT } from '../../cli/exit-codes';

/**
 * `bullswarm check-output-schema <schema> <candidate>`: exit 0 when the candidate matches (prints
 * `ok`), 1 with every mismatch and its JSON path, 2 for bad input (a file missing or not JSON, a
 * schema outside the supported subset). Loads nothing but the validator.
 */
export async function checkOutputSchemaCommand(
  context: CommandContext,
  schema: string,
  candidate: string,
): Promise<void> {
  const { checkOutputSchemaFiles } = await import('@bullswarm/workflow');
  const result = checkOutputSchemaFiles(schema, candidate, context.io.cwd);
  if (result.code === 0) {
    context.io.out(`ok: ${result.candidatePath} matches ${result.schemaPath}\n`);
    return;
  }
  if (result.code === 1) {
    for (const error of result.errors) context.io.out(`${error.path}: ${error.message}\n`);
    context.io.out(
      `${result.errors.length} mismatch${result.errors.length === 1 ? '' : 'es'}: ${result.candidatePath} does not match ${result.schemaPath}\n`,
    );
    throw new CliExit(EXIT.failed);
  }
  for (const problem of result.problems) context.io.err(`error: ${problem}\n`);
  throw new CliExit(EXIT.usage);
}
