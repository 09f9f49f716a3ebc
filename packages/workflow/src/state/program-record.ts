import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { WorkflowError } from '../errors/workflow-error';
import type { WorkflowProgram } from '../program/workflow-program';
import type { RunPaths } from './run-paths';

/** The file `program.json` of a run: the program as run. */
export interface ProgramRecord {
  readonly recordVersion: 1;
  readonly program: WorkflowProgram;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly programFile?: string;
  readonly cwd: string;
  /** The run's options (absent in records of older bullswarm versions: the program's settings apply). */
  readonly options?: { readonly concurrency: number; readonly workerPool?: string };
}

/** Reads `program.json` of a run. @throws WorkflowError `run-state-invalid` naming the file */
export function readProgramRecord(paths: RunPaths): ProgramRecord {
  let record: ProgramRecord;
  try {
    record = JSON.parse(readFileSync(paths.programPath, 'utf8')) as ProgramRecord;
  } catch (error) {
    throw new WorkflowError({
      kind: 'run-state-invalid',
      filePath: paths.programPath,
      message: `${paths.programPath} cannot be read (${(error as Error).message})`,
      cause: error,
    });
  }
  if (record?.recordVersion !== 1 || !Array.isArray(record.program?.steps) || !isAbsolute(record.cwd ?? '')) {
    throw new WorkflowError({
      kind: 'run-state-invalid',
      filePath: paths.programPath,
      message: `${paths.programPath}: expected a program record (recordVersion 1, program.steps, cwd)`,
    });
  }
  return record;
}
