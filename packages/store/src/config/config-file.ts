import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { parseJsonText, removeStaleTempFiles, writeFileAtomic } from '@bullswarm/connectors/internal';
import type { z } from 'zod';
import { ConfigFileError } from '../errors/config-file-error';
import { type FileLockOptions, withFileLock } from '../files/file-lock';
import { createHomeDir } from '../home/create-home-dir';
import { type FieldProblem, formatIssues } from './format-issues';

/**
 * A JSON config file bullswarm owns: its schema, and what a missing file means.
 * @internal shared by state.json and pool-labels.json.
 */
export interface ConfigFileSpec<T> {
  readonly schema: z.ZodType<T>;
  readonly empty: () => T;
}

/**
 * Changes a config file: mutate the draft in place (and return nothing), or return a replacement.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a mutator that edits in place returns nothing
export type Mutator<T> = (draft: T) => T | undefined | void;

/** What a raw read found. */
type RawRead<T> =
  | { readonly exists: false; readonly value: T }
  | { readonly exists: true; readonly value: T; readonly text: string };

function readRaw<T>(filePath: string, spec: ConfigFileSpec<T>): RawRead<T> {
  let text: string;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { exists: false, value: spec.empty() };
    throw new ConfigFileError({
      filePath,
      kind: 'unreadable',
      problem: `cannot be read (${code ?? (error as Error).message})`,
      recovery: 'check that it is a readable file; bullswarm will not overwrite it',
      cause: error,
    });
  }
  // The one reader of user-written JSON: line and column, a BOM ignored, binary never echoed.
  const read = parseJsonText(text);
  if (!read.ok) {
    throw new ConfigFileError({
      filePath,
      kind: 'invalid-json',
      problem: read.problem,
      recovery: recoveryFor(filePath, undefined),
      cause: read.cause,
    });
  }
  const json = read.value;
  const parsed = spec.schema.safeParse(json);
  if (!parsed.success) {
    throw schemaError(
      filePath,
      'invalid-schema',
      formatIssues(parsed.error.issues, json),
      recoveryFor,
      parsed.error,
    );
  }
  return { exists: true, value: parsed.data, text };
}

/**
 * Read and validate a config file; a missing file yields the empty value and creates nothing.
 * @throws ConfigFileError when the file is unreadable, not JSON, or breaks the schema.
 */
export function readConfigFile<T>(filePath: string, spec: ConfigFileSpec<T>): T {
  return readRaw(filePath, spec).value;
}

/** The result of {@link updateConfigFile}. */
export interface ConfigUpdate<T> {
  /** The file's content after the update (validated, defaults applied). */
  readonly value: T;
  /** False when the mutation changed nothing, so nothing was written. */
  readonly written: boolean;
}

/**
 * Read-modify-write a config file under its exclusive update lock.
 *
 * 1. Create the directory (mode 0700) if missing, and take the file's lock.
 * 2. Re-read and validate the current file; if it is invalid, refuse with {@link ConfigFileError}
 *    (the file is never overwritten by mistake).
 * 3. Hand a deep copy to `mutate` (mutate it in place, or return a replacement).
 * 4. Validate the result; an invalid result is refused (`rejected-update`) and nothing is written.
 * 5. When the content changed, write it atomically, keeping the previous version as `<name>.bak`.
 */
export function updateConfigFile<T>(
  filePath: string,
  spec: ConfigFileSpec<T>,
  mutate: Mutator<T>,
  options: FileLockOptions = {},
): ConfigUpdate<T> {
  createHomeDir(dirname(filePath));
  return withFileLock(
    filePath,
    () => {
      const current = readRaw(filePath, spec);
      removeStaleTempFiles(filePath);
      removeStaleTempFiles(`${filePath}.bak`);
      const draft = structuredClone(current.value);
      const next = mutate(draft) ?? draft;
      const parsed = spec.schema.safeParse(next);
      if (!parsed.success) {
        throw schemaError(
          filePath,
          'rejected-update',
          formatIssues(parsed.error.issues, next),
          () => `the update was not written; ${basename(filePath)} is unchanged`,
          parsed.error,
        );
      }
      const text = `${JSON.stringify(parsed.data, null, 2)}\n`;
      const before = current.exists ? current.text : `${JSON.stringify(current.value, null, 2)}\n`;
      if (text === before) return { value: parsed.data, written: false };
      writeFileAtomic(filePath, text, { mode: 0o600, backup: current.exists });
      return { value: parsed.data, written: true };
    },
    options,
  );
}

function schemaError(
  filePath: string,
  kind: 'invalid-schema' | 'rejected-update',
  problems: FieldProblem[],
  recovery: (filePath: string, fieldPath: string | undefined) => string,
  cause: unknown,
): ConfigFileError {
  const first = problems[0] ?? { fieldPath: undefined, problem: 'does not match its schema' };
  const more =
    problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  return new ConfigFileError({
    filePath,
    kind,
    fieldPath: first.fieldPath,
    problem: first.problem + more,
    problems,
    recovery:
      first.recovery === undefined
        ? recovery(filePath, first.fieldPath)
        : `${first.recovery}; bullswarm will not overwrite ${basename(filePath)} meanwhile`,
    cause,
  });
}

/** How to recover from an invalid config file: fix it by hand, or restore the backup when there is one. */
export function recoveryFor(filePath: string, fieldPath: string | undefined): string {
  const backup = `${filePath}.bak`;
  const fix = fieldPath === undefined ? 'fix the file by hand' : 'fix the field by hand';
  const restore = existsSync(backup)
    ? ` or restore ${basename(backup)} (the version before the last write)`
    : '';
  return `${fix}${restore}; bullswarm will not overwrite ${basename(filePath)} while it is invalid`;
}
