import { dirname, resolve } from 'node:path';
import { type JsonReadReason, readJsonFile } from '@bullswarm/connectors/internal';
import { type ProgramProblem, WorkflowError } from '../errors/workflow-error';
import { type ValidateProgramOptions, type ValidateProgramResult, validateProgram } from './validate-program';
import type { WorkflowProgram } from './workflow-program';

/** The result of {@link validateProgramFile}: the parsed JSON too, when the file parsed. */
export type ValidateProgramFileResult = ValidateProgramResult & {
  /** Absolute path of the program file. */
  readonly filePath: string;
};

/**
 * Reads a program file and validates it with its directory as `programDir` (so promptFiles are
 * read and checked). A file that is missing, cannot be read or is not JSON gives one problem at `$`
 * naming the file (`missing-file`, `unreadable-file`, or `invalid-json` with the line and column).
 * Never throws.
 */
export function validateProgramFile(
  file: string,
  options: Omit<ValidateProgramOptions, 'programDir'> = {},
): ValidateProgramFileResult {
  const filePath = resolve(file);
  const parsed = readProgramJson(filePath);
  if (!parsed.ok) return { ok: false, problems: [parsed.problem], filePath };
  return { ...validateProgram(parsed.json, { ...options, programDir: dirname(filePath) }), filePath };
}

/**
 * Reads and validates a program file; throws a {@link WorkflowError} (`program-unreadable` or
 * `program-invalid` with every problem) when it is not runnable.
 */
export function loadProgramFile(
  file: string,
  options: Omit<ValidateProgramOptions, 'programDir'> = {},
): { readonly program: WorkflowProgram; readonly filePath: string } {
  const result = validateProgramFile(file, options);
  if (result.ok) return { program: result.program, filePath: result.filePath };
  const unreadable = result.problems.length === 1 && isFileProblem(result.problems[0]!);
  throw new WorkflowError({
    kind: unreadable ? 'program-unreadable' : 'program-invalid',
    filePath: result.filePath,
    problems: result.problems,
    message: unreadable
      ? (result.problems[0] as ProgramProblem).message
      : `${result.filePath}: ${result.problems.length} problem(s): ` +
        result.problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '),
  });
}

/** A problem with the program file itself (missing, unreadable, not JSON), not with a field of it. */
export function isFileProblem(problem: ProgramProblem): boolean {
  return FILE_PROBLEM_KINDS.has(problem.kind);
}

const FILE_PROBLEM_KINDS: ReadonlySet<ProgramProblem['kind']> = new Set([
  'missing-file',
  'unreadable-file',
  'invalid-json',
]);

function readProgramJson(
  filePath: string,
): { readonly ok: true; readonly json: unknown } | { readonly ok: false; readonly problem: ProgramProblem } {
  // The one reader of the JSON files users write (docs/architecture.md): line and column for a
  // syntax error, and never the file's text (a binary file is not echoed to the terminal).
  const read = readJsonFile(filePath);
  if (read.ok) return { ok: true, json: read.value };
  const kind = KIND_OF_REASON[read.reason];
  return { ok: false, problem: { path: '$', kind, message: `program file ${filePath} ${read.problem}` } };
}

const KIND_OF_REASON = {
  missing: 'missing-file',
  unreadable: 'unreadable-file',
  'not-text': 'invalid-json',
  'invalid-json': 'invalid-json',
} as const satisfies Record<JsonReadReason, ProgramProblem['kind']>;
