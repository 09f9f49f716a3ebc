import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

/**
 * `bullswarm connectors init`: a standalone connector package, written from the connector template
 * (examples/connector-template, copied into the CLI's dist/connector-template/ by its build, with
 * `@bullswarm/connectors` ranged `^<version>`: see apps/cli/tsup.config.ts). Every file and file
 * name of the template is the package for the connector id `template`; `init` renames that id:
 *
 * - `TEMPLATE` → the id in upper snake case (`MY_AGENT`),
 * - `Template` → the id in Pascal case (`MyAgent`),
 * - `template` followed by a capital letter (an identifier such as `templateConnector`) → camel case
 *   (`myAgentConnector`),
 * - any other `template` → the id itself (`my-agent`: the connector id, `bullswarm-connector-my-agent`,
 *   `my-agent-agent`, file names).
 *
 * So `init --id template` writes the template as it is. The template is written so that every one
 * of its `template` words means the id.
 */

/** A connector id `init` accepts: kebab case starting with a letter (it becomes identifiers too). */
export const SCAFFOLD_ID_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/**
 * The template's file names it is shipped under, and the names `init` writes: npm never packs a
 * `.gitignore`, and a `package.json` inside the CLI's dist would be a nested package whose
 * `exports` Node ignores (publint refuses it).
 */
const SHIPPED_AS: Readonly<Record<string, string>> = {
  gitignore: '.gitignore',
  'package.template.json': 'package.json',
};

function words(id: string): string[] {
  return id.split('-');
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Renames the template's id in one text (see the module comment). */
export function renameTemplateId(text: string, id: string): string {
  const parts = words(id);
  const pascal = parts.map(capital).join('');
  const camel = parts[0] + parts.slice(1).map(capital).join('');
  const upper = parts.map((word) => word.toUpperCase()).join('_');
  return text
    .replaceAll('TEMPLATE', upper)
    .replaceAll('Template', pascal)
    .replace(/template(?=[A-Z])/g, camel)
    .replaceAll('template', id);
}

/** The connector id for a target directory: its name without a `bullswarm-connector-` prefix. */
export function defaultScaffoldId(targetDir: string): string {
  return basename(targetDir).replace(/^bullswarm-connector-/, '');
}

/** Every file of the template, as paths relative to it (sorted). */
export function templateFiles(templateDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) found.push(relative(templateDir, path));
    }
  };
  walk(templateDir);
  return found.sort();
}

/** What {@link scaffoldConnector} wrote. */
export interface ScaffoldResult {
  /** The package's directory (absolute). */
  readonly directory: string;
  /** The package name, `bullswarm-connector-<id>`. */
  readonly packageName: string;
  readonly connectorId: string;
  /** The files written, relative to `directory`. */
  readonly files: readonly string[];
}

/**
 * Writes the package for `id` into `targetDir`, which must not exist or be an empty directory.
 * Everything is written into a temporary directory beside it first and renamed into place, so a
 * failure leaves no half-written package.
 */
export function scaffoldConnector(options: {
  readonly templateDir: string;
  readonly targetDir: string;
  readonly id: string;
}): ScaffoldResult {
  const { templateDir, targetDir, id } = options;
  const parent = dirname(targetDir);
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(join(parent, `.${basename(targetDir)}.init-`));
  try {
    const files: string[] = [];
    for (const file of templateFiles(templateDir)) {
      const parts = file.split('/').map((part) => SHIPPED_AS[part] ?? part);
      const target = renameTemplateId(parts.join('/'), id);
      const bytes = readFileSync(join(templateDir, file), 'utf8');
      mkdirSync(dirname(join(staging, target)), { recursive: true });
      writeFileSync(join(staging, target), renameTemplateId(bytes, id), {
        mode: statSync(join(templateDir, file)).mode & 0o777,
      });
      files.push(target);
    }
    // rename(2) onto an empty directory replaces it, onto a non-empty one fails (ENOTEMPTY).
    renameSync(staging, targetDir);
    const packageName = (
      JSON.parse(readFileSync(join(targetDir, 'package.json'), 'utf8')) as { name: string }
    ).name;
    return { directory: targetDir, packageName, connectorId: id, files: files.sort() };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
