import { join } from 'node:path';

/** The files of one run directory, `$BULLSWARM_HOME/workflows/<runId>/`. */
export interface RunPaths {
  readonly runDir: string;
  /** Versioned run state, written atomically (coalesced). */
  readonly statePath: string;
  /** Every event, one JSON line each, appended. */
  readonly eventsPath: string;
  /** The machine report, written when the run (or a resume) ends. */
  readonly reportPath: string;
  /** The program as run: prompts inlined, inputs resolved. */
  readonly programPath: string;
  /** Attempt output files (`out-<action>-attempt-<n>`), dispatch's `outputDir`. */
  readonly attemptsDir: string;
  /** Output schemas handed to workers. */
  readonly schemasDir: string;
  /**
   * Where workers write candidate objects for the preflight check: one folder per step (and per
   * fan-out item) below it, see {@link unitCandidatesDir}; a worker is handed only its own.
   */
  readonly candidatesDir: string;
  /** Gate logs. */
  readonly gatesDir: string;
}

/** Run ids: `wf-` and lower-case letters/digits. */
export const RUN_ID_PATTERN = /^wf-[a-z0-9]{4,32}$/;

/** The paths of run `runId` under a home's workflows directory. */
export function runPaths(workflowsDir: string, runId: string): RunPaths {
  const runDir = join(workflowsDir, runId);
  return {
    runDir,
    statePath: join(runDir, 'state.json'),
    eventsPath: join(runDir, 'events.jsonl'),
    reportPath: join(runDir, 'report.json'),
    programPath: join(runDir, 'program.json'),
    attemptsDir: join(runDir, 'attempts'),
    schemasDir: join(runDir, 'schemas'),
    candidatesDir: join(runDir, 'candidates'),
    gatesDir: join(runDir, 'gates'),
  };
}

/**
 * The candidates folder of one unit: `candidates/<step>/` for a step, `candidates/<step>/<slot>/`
 * for a fan-out item. The worker gets this folder (and no other run folder) as its one added
 * directory, so a blind step is never handed the folder holding another step's candidate.
 */
export function unitCandidatesDir(
  paths: Pick<RunPaths, 'candidatesDir'>,
  step: string,
  slot?: number,
): string {
  return slot === undefined ? join(paths.candidatesDir, step) : join(paths.candidatesDir, step, String(slot));
}
