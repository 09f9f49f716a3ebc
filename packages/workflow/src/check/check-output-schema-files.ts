import { resolve } from 'node:path';
import { readJsonFile } from '@bullswarm/connectors/internal';
import {
  checkOutputSchema,
  type OutputSchema,
  type OutputSchemaProblem,
  validateOutput,
} from '../program/output-schema';

/** The result of {@link checkOutputSchemaFiles}: the exit code of `bullswarm check-output-schema` and what to print. */
export type CheckOutputSchemaResult =
  | { readonly code: 0; readonly schemaPath: string; readonly candidatePath: string }
  | {
      readonly code: 1;
      readonly schemaPath: string;
      readonly candidatePath: string;
      /** Every mismatch, with its JSON path in the candidate. */
      readonly errors: readonly OutputSchemaProblem[];
    }
  | {
      readonly code: 2;
      /** What is wrong with the input: the file, and the field or position. */
      readonly problems: readonly string[];
    };

function readJson(path: string, what: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  // The one reader of user-written JSON: a syntax error by line and column, and never the file's
  // text in the message (a candidate answer may be long, binary or secret).
  const read = readJsonFile(path);
  return read.ok
    ? { ok: true, value: read.value }
    : { ok: false, problem: `${what} ${path} ${read.problem}` };
}

/**
 * The preflight a schema-bound worker runs on its candidate answer (and what the engine checks
 * again): reads an output schema and a candidate JSON file. Exit code 0 when the candidate is a JSON
 * object matching the schema; 1 with every mismatch and its JSON path; 2 when an input is bad — a
 * file missing or not JSON, or a schema outside the supported subset (with each problem's path).
 */
export function checkOutputSchemaFiles(
  schemaFile: string,
  candidateFile: string,
  cwd = process.cwd(),
): CheckOutputSchemaResult {
  const schemaPath = resolve(cwd, schemaFile);
  const candidatePath = resolve(cwd, candidateFile);
  const problems: string[] = [];
  const schema = readJson(schemaPath, 'schema');
  const candidate = readJson(candidatePath, 'candidate');
  if (!schema.ok) problems.push(schema.problem);
  if (!candidate.ok) problems.push(candidate.problem);
  if (schema.ok) {
    for (const problem of checkOutputSchema(schema.value)) {
      problems.push(`schema ${schemaPath}: ${problem.path}: ${problem.message}`);
    }
  }
  if (problems.length > 0 || !schema.ok || !candidate.ok) return { code: 2, problems };
  const errors = validateOutput(schema.value as OutputSchema, candidate.value);
  return errors.length === 0
    ? { code: 0, schemaPath, candidatePath }
    : { code: 1, schemaPath, candidatePath, errors };
}
