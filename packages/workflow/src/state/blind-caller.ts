import { readFileSync } from 'node:fs';
import type { RunPaths } from './run-paths';

/** The variables the engine sets for every worker: its run and its step. */
export const WORKFLOW_RUN_ENV = 'BULLSWARM_WORKFLOW_RUN';
export const WORKFLOW_STEP_ENV = 'BULLSWARM_WORKFLOW_STEP';

/** A blind step's worker asking to see its own run. */
export interface BlindCaller {
  readonly runId: string;
  readonly step: string;
  readonly blindTo: readonly string[];
}

/**
 * Whether `env` is the environment of a worker of run `runId` running a blind step (its
 * `BULLSWARM_WORKFLOW_RUN` is the run and its `BULLSWARM_WORKFLOW_STEP` names a step of the program
 * recorded in the run's `program.json` with a non-empty `blindTo`). `workflow show` and `workflow watch` refuse such a
 * caller, so the bullswarm CLI never hands a blind worker the answers of the steps it is blind to.
 * This is a guard on bullswarm's own commands, not a sandbox: see the README ("What a blind worker
 * can reach").
 */
export function blindCaller(
  paths: Pick<RunPaths, 'programPath'>,
  runId: string,
  env: Readonly<Record<string, string | undefined>>,
): BlindCaller | undefined {
  const step = env[WORKFLOW_STEP_ENV];
  if (env[WORKFLOW_RUN_ENV] !== runId || step === undefined || step === '') return undefined;
  let record: unknown;
  try {
    record = JSON.parse(readFileSync(paths.programPath, 'utf8'));
  } catch {
    return undefined;
  }
  const steps = (record as { program?: { steps?: unknown } } | null)?.program?.steps;
  if (!Array.isArray(steps)) return undefined;
  const def = steps.find((entry) => (entry as { id?: unknown })?.id === step) as
    | { blindTo?: unknown }
    | undefined;
  const blindTo = Array.isArray(def?.blindTo) ? def.blindTo.filter((id) => typeof id === 'string') : [];
  return blindTo.length === 0 ? undefined : { runId, step, blindTo };
}
