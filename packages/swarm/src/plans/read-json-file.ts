import { readJsonFile as readUserJson } from '@bullswarm/connectors/internal';
import { formatFieldPath } from '@bullswarm/pacing/internal';
import type { z } from 'zod';
import { PlanFileError } from '../errors/plan-file-error';

/**
 * Reads a JSON file (a leading byte-order mark is ignored) and validates it with `schema`.
 * `what` names the file in `no such <what>`; `issueNote` is appended to a schema problem.
 * @throws PlanFileError naming the file: missing, unreadable, not JSON (with the line and column),
 * not text, or the first field that does not fit (its path in `fieldPath`).
 */
export function readJsonFile<T>(file: string, schema: z.ZodType<T>, what: string, issueNote = ''): T {
  // The one reader of the JSON files users write (connectors/internal): line and column for a
  // syntax error, and never the file's text (a binary file is not echoed to the terminal).
  const read = readUserJson(file);
  if (!read.ok) {
    throw new PlanFileError({
      filePath: file,
      problem: read.reason === 'missing' ? `no such ${what}` : read.problem,
      cause: read.cause,
    });
  }
  const json = read.value;
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
