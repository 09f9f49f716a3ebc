import { readFileSync } from 'node:fs';
import { formatFieldPath } from '@bullswarm/pacing/internal';
import type { z } from 'zod';
import { PlanFileError } from '../errors/plan-file-error';

/**
 * Reads a JSON file (a leading byte-order mark is ignored) and validates it with `schema`.
 * `what` names the file in `no such <what>`; `issueNote` is appended to a schema problem.
 * @throws PlanFileError naming the file: missing, unreadable, not JSON, or the first field that
 * does not fit (its path in `fieldPath`).
 */
export function readJsonFile<T>(file: string, schema: z.ZodType<T>, what: string, issueNote = ''): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PlanFileError({
      filePath: file,
      problem: code === 'ENOENT' ? `no such ${what}` : `cannot read it (${code ?? (error as Error).message})`,
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new PlanFileError({
      filePath: file,
      problem: `not valid JSON (${(error as Error).message})`,
      cause: error,
    });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new PlanFileError({
      filePath: file,
      fieldPath: formatPath(issue.path),
      problem: `${issue.message}${issueNote}`,
    });
  }
  return parsed.data;
}

/** `tasks[2].dependsOn[0]` */
export function formatPath(path: readonly PropertyKey[]): string {
  return formatFieldPath(path) || '(root)';
}
