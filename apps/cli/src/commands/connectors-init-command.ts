import { existsSync, readdirSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliUsageError } from '../cli/cli-errors';
import { type CommandContext, printJson } from '../cli/command-context';
import { defaultScaffoldId, SCAFFOLD_ID_PATTERN, scaffoldConnector } from '../connectors/scaffold-connector';

/**
 * Where the build put the connector template: `dist/connector-template/` beside the bundle (the
 * bundle's `import.meta.url` is its own file; see apps/cli/tsup.config.ts).
 */
function templateDirectory(): string {
  const dir = fileURLToPath(new URL('./connector-template/', import.meta.url));
  if (!existsSync(`${dir}package.template.json`))
    throw new Error(
      `bullswarm internal error: the connector template is missing at ${dir} (reinstall @bullswarm/cli)`,
    );
  return dir;
}

/**
 * `bullswarm connectors init <dir> [--id <id>] [--json]`: writes a standalone connector package
 * (connector.json, a parser, tsconfig, tsup build, vitest tests with the conformance suite,
 * depending on `@bullswarm/connectors` by version) into a new or empty directory.
 */
export async function connectorsInitCommand(
  context: CommandContext,
  dir: string,
  options: { id?: string; json?: boolean },
): Promise<void> {
  const targetDir = resolve(context.io.cwd, dir);
  if (existsSync(targetDir)) {
    if (!statSync(targetDir).isDirectory())
      throw new CliUsageError({
        message: `<dir> ${targetDir} is a file: give a new directory (or an empty one)`,
        flag: '<dir>',
      });
    if (readdirSync(targetDir).length > 0)
      throw new CliUsageError({
        message: `<dir> ${targetDir} is not empty: give a new directory (or an empty one); nothing was written`,
        flag: '<dir>',
      });
  }
  const id = options.id ?? defaultScaffoldId(targetDir);
  if (!SCAFFOLD_ID_PATTERN.test(id)) {
    throw new CliUsageError(
      options.id === undefined
        ? {
            message: `<dir> the directory name gives the connector id "${id}", which is not kebab case starting with a letter: name the id with --id (e.g. --id my-agent)`,
            flag: '<dir>',
          }
        : {
            message: `--id "${id}" is not a connector id: kebab case starting with a letter, e.g. my-agent`,
            flag: '--id',
            expected: 'kebab case starting with a letter, e.g. my-agent',
          },
    );
  }
  const { loadBuiltinConnectors } = await import('@bullswarm/connectors');
  const builtins = (await loadBuiltinConnectors()).connectors.map((loaded) => loaded.connector.connectorId);
  if (builtins.includes(id)) {
    throw new CliUsageError({
      message: `${options.id === undefined ? '<dir>' : '--id'} "${id}" is the id of a built-in connector: choose another${options.id === undefined ? ' with --id' : ''}`,
      flag: options.id === undefined ? '<dir>' : '--id',
      expected: `not one of ${builtins.join(', ')}`,
    });
  }
  const result = scaffoldConnector({ templateDir: templateDirectory(), targetDir, id });
  if (options.json) {
    printJson(context, result);
    return;
  }
  const shown = relative(context.io.cwd, targetDir) || '.';
  context.io.out(
    `created ${result.packageName} (connector "${id}") in ${targetDir}: ${result.files.length} files\n` +
      'next:\n' +
      `  cd ${shown} && npm install && npm test     # build, unit tests and the conformance suite\n` +
      `  bullswarm connectors add ${shown}\n` +
      `  bullswarm pools add ${id} --command <path to the agent CLI>\n`,
  );
}
