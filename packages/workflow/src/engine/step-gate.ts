import { join, resolve } from 'node:path';
import type { Redactor } from '@bullswarm/connectors/redact';
import { DEFAULT_GATE_TIMEOUT_SEC, runGate } from '@bullswarm/dispatch';
import type { StepGate } from '../program/workflow-program';
import { redactFile } from '../state/redact-files';
import type { RunPaths } from '../state/run-paths';

/** What a step's gate run came to, and where its output is. */
export interface StepGateResult {
  readonly ok: boolean;
  readonly exitCode: number | null;
  readonly why: string;
  /** The end of the gate's output (for the gate-retry note). */
  readonly tail: string;
  readonly logFile: string;
}

/**
 * Runs a unit's rendered gate after an attempt (through dispatch's one gate runner), in the run's
 * folder relative to `cwd`, logging to `gates/<action>-<attempt>.log`.
 */
export async function runStepGate(options: {
  readonly gate: StepGate;
  readonly paths: RunPaths;
  readonly cwd: string;
  readonly runId: string;
  readonly stepId: string;
  readonly action: string;
  readonly attempt: number;
  readonly signal?: AbortSignal;
  /** The run's redactor: the log is a file of the home, redacted once the gate has ended. */
  readonly redact?: Redactor;
}): Promise<StepGateResult> {
  const { gate } = options;
  const logFile = join(options.paths.gatesDir, `${options.action}-${options.attempt}.log`);
  const result = await runGate({
    command: gate.command,
    cwd: resolve(options.cwd, gate.cwd ?? '.'),
    timeoutSec: gate.timeoutSec ?? DEFAULT_GATE_TIMEOUT_SEC,
    logFile,
    env: { BULLSWARM_WORKFLOW_RUN: options.runId, BULLSWARM_WORKFLOW_STEP: options.stepId },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (options.redact !== undefined) redactFile(logFile, options.redact);
  return { ok: result.ok, exitCode: result.exitCode, why: result.why, tail: result.tail, logFile };
}
