import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { removeStaleTempFiles, writeFileAtomic } from '@bullswarm/connectors/internal';
import { type BullswarmRuntime, resolveWatchdogSettings } from '@bullswarm/dispatch';
import { WorkflowError } from '../errors/workflow-error';
import { MAX_CONCURRENCY } from '../program/program-schema';
import type { WorkflowProgram } from '../program/workflow-program';
import { initialRunState } from '../state/initial-state';
import { assertNotViewOnly, type LoadedRun, loadRun } from '../state/load-run';
import { readProgramRecord } from '../state/program-record';
import { claimRun, type RunClaim } from '../state/run-owner';
import { type RunPaths, runPaths } from '../state/run-paths';
import { FINAL_STATUSES, type RunState } from '../state/run-state';
import { resolveInputs } from './resolve-inputs';
import { resolveWorkerPool } from './resolve-worker-pool';
import type { ProgramRecord, WorkflowRunOptions, WorkflowRunResult } from './run-options';

export { readProgramRecord };

import { runRedactor } from './run-redactor';
import { stepDependants } from './step-scheduler';
import { resetStep } from './step-verdict';
import { WorkflowRunner } from './workflow-runner';

/** Options of {@link startWorkflow}. */
export interface StartWorkflowOptions extends WorkflowRunOptions {
  /** A validated program (`validateProgram` / `loadProgramFile`), prompts loaded. */
  readonly program: WorkflowProgram;
  /** The program file it came from (recorded; prompts are already in `program`). */
  readonly programFile?: string;
  /** Input values (the CLI's `--input k=v`); defaults fill the rest. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** The work tree the steps run in (default the current directory). */
  readonly cwd?: string;
  /** `--worker-pool`: pin every step to this pool (id or label). */
  readonly workerPool?: string;
  /** `--concurrency`: overrides `settings.concurrency`. */
  readonly concurrency?: number;
}

/** Options of {@link resumeWorkflow}. */
export interface ResumeWorkflowOptions extends WorkflowRunOptions {
  readonly runId: string;
}

/** Options of {@link restartWorkflowStep}. */
export interface RestartWorkflowStepOptions extends WorkflowRunOptions {
  readonly runId: string;
  readonly stepId: string;
  /** Pin the restarted step to this pool (id or label); its reason says `pinned to <pool> (step restart)`. */
  readonly workerPool?: string;
}

/** A new run id: `wf-` and 8 random lower-case letters/digits. */
export function newRunId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(8);
  let id = 'wf-';
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return id;
}

function checkConcurrency(value: number): void {
  if (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY) {
    const problem = `expected a whole number from 1 to ${MAX_CONCURRENCY}`;
    throw new WorkflowError({
      kind: 'bad-option',
      message: `concurrency ${value}: ${problem}`,
      option: { name: 'concurrency', value: String(value), problem },
    });
  }
}

/**
 * Reads and checks every environment setting a run's dispatch reads (the watchdog clocks and
 * throttle back-offs, see `resolveWatchdogSettings`), once, before any run folder is created: a bad
 * value is an `InvalidEnvironmentError` naming the variable and what is valid — never a run whose
 * every unit fails on it.
 *
 * @throws InvalidEnvironmentError
 */
export function checkRunSettings(runtime: BullswarmRuntime): void {
  resolveWatchdogSettings(runtime.env);
}

/**
 * Starts a new run of a program: creates `$BULLSWARM_HOME/workflows/<runId>/` with `program.json`
 * (prompts inlined, inputs resolved), `state.json` and `events.jsonl`, then drives every step to a
 * verdict (see the package README for the rules). Resolves when nothing more can run; a step that
 * failed or came back does not stop the others.
 *
 * @throws WorkflowError `unknown-input`, `missing-input`, `bad-option` (a pool, the concurrency, the cwd)
 * @throws InvalidEnvironmentError a bad `BULLSWARM_*` setting (see {@link checkRunSettings})
 */
export async function startWorkflow(options: StartWorkflowOptions): Promise<WorkflowRunResult> {
  const { runtime, program } = options;
  checkRunSettings(runtime);
  const cwd = resolve(options.cwd ?? process.cwd());
  let isDirectory = false;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) {
    const problem = 'not an existing directory';
    throw new WorkflowError({
      kind: 'bad-option',
      message: `cwd ${cwd}: ${problem}`,
      option: { name: 'cwd', value: cwd, problem },
    });
  }
  const inputs = resolveInputs(program, options.inputs);
  const concurrency = options.concurrency ?? program.settings.concurrency;
  checkConcurrency(concurrency);
  const workerPool =
    options.workerPool === undefined ? undefined : resolveWorkerPool(runtime, options.workerPool);

  const workflowsDir = runtime.home.workflowsDir;
  mkdirSync(workflowsDir, { recursive: true, mode: 0o700 });
  let runId = '';
  let paths: RunPaths | undefined;
  for (let tries = 0; tries < 5 && paths === undefined; tries++) {
    runId = newRunId();
    const candidate = runPaths(workflowsDir, runId);
    try {
      mkdirSync(candidate.runDir, { mode: 0o700 });
      paths = candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  if (!paths) throw new Error('could not create a run directory with a fresh id');

  const programFile = options.programFile === undefined ? undefined : resolve(options.programFile);
  const record: ProgramRecord = {
    recordVersion: 1,
    program,
    inputs,
    ...(programFile === undefined ? {} : { programFile }),
    cwd,
    options: { concurrency, ...(workerPool === undefined ? {} : { workerPool }) },
  };
  const redact = runRedactor(runtime);
  writeFileAtomic(paths.programPath, `${redact.text(JSON.stringify(record, null, 2))}\n`);
  const state: RunState = initialRunState({
    runId,
    program,
    inputs,
    ...(programFile === undefined ? {} : { programFile }),
    cwd,
    createdAt: Date.now(),
    concurrency,
    ...(workerPool === undefined ? {} : { workerPool }),
  });
  const claim = await claimRun(await runtime.requireStore(), runId);
  let runner: WorkflowRunner;
  try {
    writeFileAtomic(paths.statePath, `${redact.text(JSON.stringify(state))}\n`);
    runner = new WorkflowRunner(
      runtime,
      program,
      paths,
      state,
      new Set(program.steps.map((step) => step.id)),
      options,
    );
  } catch (error) {
    await claim.release();
    throw error;
  }
  return runner.run('start', claim);
}

/** A run claimed for driving, read after the claim. */
interface DrivableRun extends LoadedRun {
  readonly record: ProgramRecord;
  readonly claim: RunClaim;
}

/**
 * Claims a run and reads it. The run is read once to name a missing or view-only run, then
 * claimed (atomic: exactly one of any number of racing processes wins, the others get
 * `run-busy`), then read again, so the state driven is the one the previous owner left — never a
 * copy read before another process drove the run.
 */
async function openForDriving(runtime: BullswarmRuntime, runId: string, verb: string): Promise<DrivableRun> {
  checkRunSettings(runtime);
  assertNotViewOnly(loadRun(runtime.home.workflowsDir, runId), verb);
  const claim = await claimRun(await runtime.requireStore(), runId);
  try {
    const loaded = loadRun(runtime.home.workflowsDir, runId);
    assertNotViewOnly(loaded, verb);
    if (loaded.live && loaded.state.owner?.pid !== process.pid) {
      // Driven by a process that holds no claim row (a bullswarm from before the claim table).
      throw new WorkflowError({
        kind: 'run-busy',
        runId,
        message: `run ${runId} is being driven by process ${loaded.state.owner?.pid}; watch it with \`bullswarm workflow watch ${runId}\``,
      });
    }
    const record = readProgramRecord(loaded.paths);
    const ids = record.program.steps.map((step) => step.id);
    if (
      loaded.state.steps.length !== ids.length ||
      loaded.state.steps.some((step, i) => step.id !== ids[i])
    ) {
      throw new WorkflowError({
        kind: 'run-state-invalid',
        runId,
        filePath: loaded.paths.statePath,
        message: `${loaded.paths.statePath}: its steps do not match ${loaded.paths.programPath}`,
      });
    }
    reconcile(loaded.state);
    cleanRunDir(loaded.paths);
    return { ...loaded, record, claim };
  } catch (error) {
    await claim.release();
    throw error;
  }
}

/**
 * Removes what a killed driver left in a run folder, once the run is claimed (so no live writer
 * can own it): temp files of atomic writes that never got renamed (`.state.json.<pid>.….tmp`,
 * `.report.json.…`), and `owner.json` of the file-based owner claim of earlier bullswarm versions
 * (the claim is now a row of the store's claims, see run-owner.ts).
 */
function cleanRunDir(paths: RunPaths): void {
  removeStaleTempFiles(paths.statePath);
  removeStaleTempFiles(paths.reportPath);
  rmSync(join(paths.runDir, 'owner.json'), { force: true });
}

/**
 * Brings a state read after a crash in line with its verdicts: a unit that was running has no
 * verdict (it runs again), a single step whose unit has a verdict takes it.
 */
function reconcile(state: RunState): void {
  for (const step of state.steps) {
    if (step.unit?.status === 'running') step.unit.status = 'pending';
    for (const item of step.items ?? []) if (item.status === 'running') item.status = 'pending';
    if (
      !step.fanOut &&
      step.unit &&
      FINAL_STATUSES.has(step.unit.status) &&
      !FINAL_STATUSES.has(step.status)
    ) {
      step.status = step.unit.status;
      if (step.unit.why !== undefined) step.why = step.unit.why;
      if (step.unit.backAt !== undefined) step.backAt = step.unit.backAt;
    }
    if (step.status === 'running') step.status = 'pending';
  }
}

/**
 * Resumes a run: re-runs only what has no `ok` verdict — failed, came-back, blocked, interrupted
 * steps and fan-out items. Items are matched by content fingerprint, so an item verified before is
 * never run again even when discovery order changed; a step that finished `ok` is never run again.
 *
 * @throws WorkflowError `run-not-found`, `run-view-only` (another engine version), `run-busy`, `run-state-invalid`
 */
export async function resumeWorkflow(options: ResumeWorkflowOptions): Promise<WorkflowRunResult> {
  const { runtime } = options;
  const loaded = await openForDriving(runtime, options.runId, 'resumed');
  const selection = new Set<string>();
  for (const step of loaded.state.steps) {
    if (step.status === 'ok') continue;
    resetStep(step);
    selection.add(step.id);
  }
  return driveClaimed(loaded, selection, options, 'resume');
}

/** Drives a claimed run over `selection` (the claim is released at the end, or now on an error). */
async function driveClaimed(
  loaded: DrivableRun,
  selection: Set<string>,
  options: WorkflowRunOptions,
  mode: 'resume' | 'restart',
): Promise<WorkflowRunResult> {
  let runner: WorkflowRunner;
  try {
    runner = new WorkflowRunner(
      options.runtime,
      loaded.record.program,
      loaded.paths,
      loaded.state,
      selection,
      options,
    );
  } catch (error) {
    await loaded.claim.release();
    throw error;
  }
  return runner.run(mode, loaded.claim);
}

/**
 * Re-runs one step of a run — all of it, also when it was ok — and then whatever was blocked
 * behind it (downstream steps that are blocked or pending). Other steps keep their verdicts. With
 * `workerPool` the step is pinned (`pinned to <pool> (step restart)`).
 *
 * @throws WorkflowError `unknown-step` and everything {@link resumeWorkflow} throws
 */
export async function restartWorkflowStep(options: RestartWorkflowStepOptions): Promise<WorkflowRunResult> {
  const { runtime } = options;
  const loaded = await openForDriving(runtime, options.runId, 'restarted');
  let selection: Set<string>;
  try {
    const target = loaded.state.steps.find((step) => step.id === options.stepId);
    if (!target) {
      throw new WorkflowError({
        kind: 'unknown-step',
        runId: options.runId,
        stepId: options.stepId,
        message: `run ${options.runId} has no step "${options.stepId}" (its steps: ${loaded.state.steps
          .map((step) => step.id)
          .join(', ')})`,
      });
    }
    const pool =
      options.workerPool === undefined ? undefined : resolveWorkerPool(runtime, options.workerPool);
    resetStep(target);
    if (pool === undefined) delete target.pin;
    else target.pin = { poolId: pool, source: 'step-restart' };
    if (target.unit) target.unit.status = 'pending';
    for (const item of target.items ?? []) item.status = 'pending';
    selection = new Set<string>([target.id]);
    const dependants = stepDependants(loaded.record.program.steps);
    const byId = new Map(loaded.state.steps.map((step) => [step.id, step]));
    const queue = [target.id];
    while (queue.length > 0) {
      const id = queue.shift() as string;
      for (const next of dependants.get(id) ?? []) {
        const step = byId.get(next);
        if (!step || selection.has(next) || (step.status !== 'blocked' && step.status !== 'pending'))
          continue;
        resetStep(step);
        selection.add(next);
        queue.push(next);
      }
    }
  } catch (error) {
    await loaded.claim.release();
    throw error;
  }
  return driveClaimed(loaded, selection, options, 'restart');
}
