import { mkdirSync, writeFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { writeFileAtomic } from '@bullswarm/connectors/internal';
import type { Redactor } from '@bullswarm/connectors/redact';
import { type BullswarmRuntime, dispatchTask } from '@bullswarm/dispatch';
import { WorkflowError } from '../errors/workflow-error';
import { isWriteFault, type WriteFault, writeFaultPath } from '../errors/write-fault';
import type { WorkflowProgram, WorkflowStep } from '../program/workflow-program';
import { buildReport } from '../state/build-report';
import { EventLog } from '../state/event-log';
import type { RunClaim } from '../state/run-owner';
import type { RunPaths } from '../state/run-paths';
import {
  countUnits,
  FINAL_STATUSES,
  type ItemState,
  type RunState,
  type StepState,
  type UnitState,
} from '../state/run-state';
import { CoalescingStateWriter } from '../state/state-writer';
import type { WorkflowEvent, WorkflowEventBody } from '../state/workflow-event';
import { Limiter } from './limiter';
import { type EmitHow, now, type RunContext } from './run-context';
import type { WorkflowRunOptions, WorkflowRunResult } from './run-options';
import { runRedactor } from './run-redactor';
import type { StepDispatcher } from './step-dispatcher';
import { StepScheduler } from './step-scheduler';
import { finishUnit, resetStep, resetUnit, stepVerdict } from './step-verdict';
import { TreeTracker } from './tree-tracker';
import { schemaFileOf, UnitExecutor } from './unit-executor';
import { type PreparedUnit, UnitPreparer } from './unit-preparer';

/** `dispatchTask` of `@bullswarm/dispatch` over the runtime (what a run uses unless given `dispatch`). */
export function defaultStepDispatcher(runtime: BullswarmRuntime): StepDispatcher {
  return (request) => dispatchTask(runtime, request);
}

/**
 * Drives one run to the end of what it may do. It wires the parts: the {@link StepScheduler}
 * (dependencies and the concurrency limiter), the {@link UnitPreparer} (templates, fan-out items,
 * fingerprints), the {@link UnitExecutor} (dispatch, the `files` check, gates, output schemas, its
 * retry loop decided by `nextUnitAction`), and the run's record: every verdict as a durable event,
 * state.json kept current through a coalescing writer. Internal: use `startWorkflow`,
 * `resumeWorkflow` or `restartWorkflowStep`.
 */
export class WorkflowRunner implements RunContext {
  readonly stepStates: Map<string, StepState>;
  private readonly scheduler: StepScheduler;
  private readonly preparer: UnitPreparer;
  private readonly executor: UnitExecutor;
  private readonly tracker: TreeTracker;
  /** What leaves the run (its files, its events) passes through this; see run-redactor.ts. */
  readonly redact: Redactor;
  private log: EventLog | undefined;
  private writer: CoalescingStateWriter | undefined;
  private stopped = false;
  /** Aborted when the run stops: the caller's signal fired, or a write fault. */
  private readonly stop = new AbortController();
  /** The first file of the run that could not be written (the run stopped on it). */
  private writeFault: WriteFault | undefined;
  private readonly drivenSince = now();

  constructor(
    readonly runtime: BullswarmRuntime,
    readonly program: WorkflowProgram,
    readonly paths: RunPaths,
    readonly state: RunState,
    selection: Set<string>,
    readonly options: WorkflowRunOptions,
  ) {
    this.stepStates = new Map(state.steps.map((step) => [step.id, step]));
    const homeInTree = relative(state.cwd, runtime.home.home).split(sep).join('/');
    const excluded =
      homeInTree !== '' && !homeInTree.startsWith('..') && !homeInTree.startsWith('/') ? [homeInTree] : [];
    this.tracker = new TreeTracker(state.cwd, excluded);
    this.redact = runRedactor(runtime);
    this.preparer = new UnitPreparer(state, this.stepStates, [
      '**/node_modules/**',
      '**/.git/**',
      ...excluded.map((prefix) => `${prefix}/**`),
    ]);
    this.executor = new UnitExecutor(this, this.tracker, options.dispatch ?? defaultStepDispatcher(runtime));
    const runner = this;
    this.scheduler = new StepScheduler(program.steps, this.stepStates, selection, state.options.concurrency, {
      runStep: (def) => this.runStep(def),
      stepCrashed: (def, error) => this.stepCrashed(def, error),
      blocked: (def, blockedBy) => this.block(def, blockedBy),
      get aborted() {
        return runner.stopped;
      },
    });
  }

  /** The run was stopped (its signal fired, or a file of the run could not be written). */
  get aborted(): boolean {
    return this.stopped;
  }

  /** Fires when the run stops; every dispatch and gate of the run gets it. */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /**
   * A file of the run could not be written (events.jsonl, state.json, an attempt's output: a full
   * disk, a read-only home). The run stops as on Ctrl-C — nothing more starts, running agents are
   * ended, units without a verdict stay for resume — and `run` throws a `write-failed` error naming
   * the file once it has kept what it can. Never an uncaught crash, never a made-up verdict.
   */
  private faulted(error: WriteFault): void {
    this.writeFault ??= error;
    this.stopped = true;
    this.scheduler.stopped();
    this.stop.abort(error);
  }

  /** The most units that held the run's limiter at once (tests, benchmarks). */
  get peakConcurrency(): number {
    return this.scheduler.limiter.peak;
  }

  /** Runs until nothing more can start, under `claim` (released at the end); returns the result. */
  async run(mode: 'start' | 'resume' | 'restart', claim: RunClaim): Promise<WorkflowRunResult> {
    const onAbort = () => {
      this.stopped = true;
      this.scheduler.stopped();
      this.stop.abort(this.options.signal?.reason);
    };
    try {
      this.log = new EventLog(this.paths.eventsPath);
      this.writer = new CoalescingStateWriter(
        this.paths.statePath,
        () => `${this.redact.text(JSON.stringify(this.state))}\n`,
        {
          ...(this.options.stateWriteIntervalMs === undefined
            ? {}
            : { minIntervalMs: this.options.stateWriteIntervalMs }),
          onError: (error) => {
            if (isWriteFault(error)) this.faulted(error);
          },
        },
      );
      this.state.owner = claim.owner;
      this.state.status = 'running';
      this.state.drivenSince = this.drivenSince;
      delete this.state.endedAt;
      // Written at once (not through the coalescing writer), so a watcher sees the live owner
      // before the first event.
      writeFileAtomic(this.paths.statePath, `${this.redact.text(JSON.stringify(this.state))}\n`);
      this.writeSchemas();
      if (this.options.signal?.aborted) onAbort();
      this.options.signal?.addEventListener('abort', onAbort, { once: true });
      this.emit(
        {
          type: 'run.started',
          mode,
          ...(this.state.name === undefined ? {} : { name: this.state.name }),
          cwd: this.state.cwd,
          pid: process.pid,
          levels: this.state.levels,
        },
        { urgent: true },
      );
      await this.tracker.init();
      await this.scheduler.drive();
      const ended = now();
      this.state.status = this.stopped ? 'interrupted' : 'finished';
      if (this.writeFault !== undefined) {
        // Stopped by a write fault: nothing of the run may say more than what was written.
        this.state.status = 'interrupted';
      }
      this.state.endedAt = ended;
      this.state.activeMs = (this.state.activeMs ?? 0) + (ended - this.drivenSince);
      delete this.state.owner;
      delete this.state.drivenSince;
      this.emit(
        {
          type: 'run.finished',
          status: this.state.status,
          counts: countUnits(this.state),
          elapsedMs: this.state.activeMs,
        },
        { durable: true, urgent: true },
      );
      await this.writer.flush().catch((error: unknown) => {
        if (!isWriteFault(error)) throw error;
        this.faulted(error);
      });
      const report = this.redact.value(buildReport(this.state));
      if (this.writeFault === undefined) {
        try {
          writeFileAtomic(this.paths.reportPath, `${JSON.stringify(report, null, 2)}\n`);
        } catch (error) {
          if (!isWriteFault(error)) throw error;
          this.faulted(error);
        }
      }
      if (this.writeFault !== undefined) throw this.stoppedOnWriteFault(this.writeFault);
      return {
        runId: this.state.runId,
        paths: this.paths,
        state: this.state,
        report,
        exitCode: report.exitCode,
      };
    } catch (error) {
      // A file the run needs from its start (events.jsonl, state.json, a schema) cannot be written.
      if (isWriteFault(error)) throw this.stoppedOnWriteFault(error);
      throw error;
    } finally {
      this.options.signal?.removeEventListener('abort', onAbort);
      await this.log?.close().catch(() => {});
      await claim.release();
    }
  }

  /** The error `run` ends with after a write fault: the file, what to do, and `resume`. */
  private stoppedOnWriteFault(fault: WriteFault): WorkflowError {
    const { runId } = this.state;
    return new WorkflowError({
      kind: 'write-failed',
      runId,
      filePath: writeFaultPath(fault),
      fault: fault.fault,
      cause: fault,
      message: `${fault.message}; run ${runId} stopped (its verdicts so far are kept): continue it with \`bullswarm workflow resume ${runId}\``,
    });
  }

  // ---- events and state ----------------------------------------------------------------------

  emit(body: WorkflowEventBody, how: EmitHow = {}): void {
    const event = this.redact.value({
      seq: this.state.lastEventSeq + 1,
      at: now(),
      runId: this.state.runId,
      ...body,
    } as WorkflowEvent);
    // After a write fault nothing more goes to the log, and `lastEventSeq` stays the last line
    // written: state.json never claims an event the log does not have (resume numbers on from it).
    if (this.writeFault === undefined) {
      try {
        this.log?.append(event, how.durable === true);
        this.state.lastEventSeq = event.seq;
      } catch (error) {
        if (!isWriteFault(error)) throw error;
        this.faulted(error);
      }
    }
    this.state.updatedAt = event.at;
    this.writer?.request(how.urgent === true);
    this.options.onEvent?.(event, this.state);
  }

  private writeSchemas(): void {
    for (const step of this.program.steps) {
      if (!step.outputSchema) continue;
      mkdirSync(this.paths.schemasDir, { recursive: true, mode: 0o700 });
      writeFileSync(schemaFileOf(this.paths, step), `${JSON.stringify(step.outputSchema, null, 2)}\n`, {
        mode: 0o600,
      });
    }
    mkdirSync(this.paths.candidatesDir, { recursive: true, mode: 0o700 });
  }

  // ---- steps -----------------------------------------------------------------------------------

  private block(def: WorkflowStep, blockedBy: string[]): void {
    const st = this.stepStates.get(def.id) as StepState;
    st.status = 'blocked';
    st.blockedBy = blockedBy;
    delete st.why;
    delete st.kind;
    delete st.backAt;
    this.emit({ type: 'step.blocked', step: def.id, blockedBy }, { urgent: true });
  }

  private stepCrashed(def: WorkflowStep, error: unknown): void {
    const st = this.stepStates.get(def.id) as StepState;
    if (isWriteFault(error)) {
      // Not the step's failure: the run stops, and resume runs the step again.
      st.status = 'pending';
      this.faulted(error);
      return;
    }
    st.status = 'failed';
    st.kind = 'engine';
    st.why = `engine error: ${(error as Error)?.message ?? String(error)}`;
    this.emit(
      { type: 'step.finished', step: def.id, status: 'failed', kind: 'engine', why: st.why },
      { durable: true, urgent: true },
    );
  }

  private async runStep(def: WorkflowStep): Promise<void> {
    const st = this.stepStates.get(def.id) as StepState;
    resetStep(st);
    st.status = 'running';
    st.startedAt = now();
    this.emit({ type: 'step.started', step: def.id }, { urgent: true });
    if (def.forEach) await this.runFanOut(def, st);
    else await this.runSingle(def, st);
    const verdict = stepVerdict(st);
    if (verdict.status === 'pending') {
      st.status = 'pending';
      this.writer?.request(true);
      return;
    }
    st.status = verdict.status;
    st.endedAt = now();
    if (verdict.kind) st.kind = verdict.kind;
    if (verdict.why) st.why = verdict.why;
    if (verdict.backAt !== undefined) st.backAt = verdict.backAt;
    delete st.pin;
    this.emit(
      {
        type: 'step.finished',
        step: def.id,
        status: st.status,
        ...(st.kind === undefined ? {} : { kind: st.kind }),
        ...(st.why === undefined ? {} : { why: st.why }),
        ...(st.backAt === undefined ? {} : { backAt: st.backAt }),
      },
      { durable: true, urgent: true },
    );
  }

  private async runSingle(def: WorkflowStep, st: StepState): Promise<void> {
    if (st.unit?.status === 'ok') return;
    const unit: UnitState = { status: 'pending', action: def.id, attempts: st.unit?.attempts ?? [] };
    st.unit = unit;
    const prepared = this.preparer.prepare(def, false, undefined);
    unit.fingerprint = prepared.fingerprint;
    await this.runUnit(def, st, unit, undefined, prepared);
  }

  private async runFanOut(def: WorkflowStep, st: StepState): Promise<void> {
    const expansion = await this.preparer.expandItems(def);
    if (!expansion.ok) {
      st.kind = 'items';
      st.why = expansion.why;
      return;
    }
    const { items, nextSlot, prepared, reused } = this.preparer.planItems(def, st, expansion.items);
    st.items = items;
    st.nextSlot = nextSlot;
    this.emit({ type: 'step.items', step: def.id, count: items.length, reused }, { urgent: true });
    const cap = def.forEach?.concurrency;
    const stepLimiter = cap === undefined ? undefined : new Limiter(cap);
    await Promise.all(
      items
        .filter((item) => item.status === 'pending')
        .map((item) => this.runUnit(def, st, item, stepLimiter, prepared.get(item.slot) as PreparedUnit)),
    );
  }

  /** Runs one unit under the step's cap and the run's limiter, and records its verdict. */
  private async runUnit(
    def: WorkflowStep,
    st: StepState,
    unit: UnitState | ItemState,
    stepLimiter: Limiter | undefined,
    prepared: PreparedUnit,
  ): Promise<void> {
    const slot = 'slot' in unit ? unit.slot : undefined;
    const ref = { step: def.id, ...(slot === undefined ? {} : { slot }) };
    const releaseStep = stepLimiter ? await stepLimiter.acquire() : undefined;
    const release = await this.scheduler.limiter.acquire();
    try {
      if (this.stopped) return;
      unit.status = 'running';
      unit.startedAt = now();
      resetUnit(unit);
      this.emit({ type: 'unit.started', ...ref });
      try {
        await this.executor.execute(def, st, unit, prepared, ref);
      } catch (error) {
        if (isWriteFault(error)) {
          // An attempt's output could not be written: no verdict; the run stops, resume runs it.
          unit.status = 'pending';
          this.faulted(error);
          return;
        }
        finishUnit(unit, 'failed', {
          kind: 'engine',
          why: `engine error: ${(error as Error)?.message ?? error}`,
        });
      }
      if (unit.status === 'running') unit.status = 'pending';
      if (FINAL_STATUSES.has(unit.status)) {
        this.emit({ type: 'unit.finished', ...ref, unit }, { durable: true, urgent: slot === undefined });
      } else {
        this.writer?.request();
      }
    } finally {
      release();
      releaseStep?.();
    }
  }
}
