import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
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
  let text: string;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      problem: {
        path: '$',
        kind: code === 'ENOENT' ? 'missing-file' : 'unreadable-file',
        message:
          code === 'ENOENT'
            ? `program file ${filePath} does not exist`
            : `program file ${filePath} cannot be read (${code ?? String(error)})`,
      },
    };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { ok: true, json: JSON.parse(text) };
  } catch (error) {
    return {
      ok: false,
      problem: {
        path: '$',
        kind: 'invalid-json',
        message: `program file ${filePath} is not valid JSON: ${describeJsonError(text, error)}`,
      },
    };
  }
}

/** `line 3, column 7: <node's message>` when the position is known. */
export function describeJsonError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message);
  if (!position) return message;
  const offset = Number(position[1]);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}: ${message}`;
}
