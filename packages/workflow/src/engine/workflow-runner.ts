import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '@bullswarm/connectors/internal';
import type { Redactor } from '@bullswarm/connectors/redact';
import { type BullswarmRuntime, DEFAULT_GATE_TIMEOUT_SEC, dispatchTask, runGate } from '@bullswarm/dispatch';
import type { TaskRoute } from '@bullswarm/pacing';
import fg from 'fast-glob';
import { lastJsonObject } from '../program/answer-json';
import { type OutputSchemaProblem, validateOutput } from '../program/output-schema';
import { renderTemplate, type TemplateScope, walk } from '../program/template';
import type { StepGate, WorkflowProgram, WorkflowStep } from '../program/workflow-program';
import { buildReport, type WorkflowReport } from '../state/build-report';
import { EventLog } from '../state/event-log';
import type { RunClaim } from '../state/run-owner';
import { type RunPaths, unitCandidatesDir } from '../state/run-paths';
import {
  type AttemptRecord,
  countUnits,
  type FailureKind,
  FINAL_STATUSES,
  type ItemState,
  type RunState,
  type StepState,
  type UnitState,
  type UnitStatus,
} from '../state/run-state';
import { CoalescingStateWriter } from '../state/state-writer';
import type { WorkflowEvent, WorkflowEventBody } from '../state/workflow-event';
import { unitFingerprint } from './fingerprint';
import { itemLabel } from './item-label';
import { Limiter } from './limiter';
import { runRedactor } from './run-redactor';
import {
  NEEDS_YOU_KINDS,
  RETRY_SPENDING_KINDS,
  type StepDispatchEvent,
  type StepDispatcher,
  type StepDispatchResult,
} from './step-dispatcher';
import { blindPrefix, filesRule, gateRetryNote, schemaInstructions, schemaRetryNote } from './step-prompt';
import { TreeTracker } from './tree-tracker';

/** Options every way of driving a run shares. */
export interface WorkflowRunOptions {
  /** The bullswarm runtime (home, store, connectors, meters, clock) steps are routed and dispatched with. */
  readonly runtime: BullswarmRuntime;
  /** Dispatches one unit; default `dispatchTask(runtime, request)` of `@bullswarm/dispatch`. */
  readonly dispatch?: StepDispatcher;
  /**
   * The preflight command prefix a schema-bound worker runs on its candidate, e.g.
   * `[process.execPath, '/…/bullswarm.js', 'check-output-schema']` (the CLI passes its own
   * absolute invocation). Default `['bullswarm', 'check-output-schema']`.
   */
  readonly checkOutputSchemaCommand?: readonly string[];
  /** Every event as it happens, with the live state (read it, do not change it). */
  readonly onEvent?: (event: WorkflowEvent, state: Readonly<RunState>) => void;
  /** Stops the run: running attempts are canceled and their units stay without a verdict (resume runs them). */
  readonly signal?: AbortSignal;
  /** Least time between two item-driven state.json writes, ms (default 250). */
  readonly stateWriteIntervalMs?: number;
}

/** The result of driving a run. */
export interface WorkflowRunResult {
  readonly runId: string;
  readonly paths: RunPaths;
  readonly state: RunState;
  readonly report: WorkflowReport;
  /** 0 when every step is ok, 1 when any step failed, came back, is blocked or was interrupted. */
  readonly exitCode: 0 | 1;
}

/** The file `program.json` of a run: the program as run. */
export interface ProgramRecord {
  readonly recordVersion: 1;
  readonly program: WorkflowProgram;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly programFile?: string;
  readonly cwd: string;
}

interface PreparedUnit {
  readonly ok: boolean;
  readonly error?: string;
  readonly prompt: string;
  readonly files: readonly string[];
  readonly gate?: StepGate;
  readonly fingerprint: string;
}

interface KeptFailure {
  readonly kind: FailureKind;
  readonly why: string;
  readonly schemaErrors?: readonly OutputSchemaProblem[];
}

type Purpose = AttemptRecord['purpose'];

const now = () => Date.now();

/** `dispatchTask` of `@bullswarm/dispatch` over the runtime (what a run uses unless given `dispatch`). */
export function defaultStepDispatcher(runtime: BullswarmRuntime): StepDispatcher {
  return (request) => dispatchTask(runtime, request);
}

/** Clears a step's verdict (status `pending`, no why, kind, back-at, end or blockers) before it runs again. */
export function resetStep(step: StepState): void {
  step.status = 'pending';
  for (const key of ['blockedBy', 'why', 'kind', 'backAt', 'endedAt'] as const) delete step[key];
}

/** Step id → the ids of the steps that depend on it directly, in program order. */
export function stepDependants(steps: readonly WorkflowStep[]): Map<string, string[]> {
  const dependants = new Map<string, string[]>();
  for (const step of steps) {
    for (const dep of step.dependsOn) {
      const list = dependants.get(dep);
      if (list) list.push(step.id);
      else dependants.set(dep, [step.id]);
    }
  }
  return dependants;
}

/**
 * Drives one run to the end of what it may do: schedules steps by their dependencies under one
 * concurrency limiter (a fan-out's own `concurrency` is an extra cap inside it), dispatches each
 * unit through `dispatch` (pacing's rule, `kind: 'workflow-step'`, throttle back-off), enforces
 * `files`, runs gates, checks output schemas, records every verdict as a durable event and keeps
 * state.json current through a coalescing writer. Internal: use `startWorkflow`, `resumeWorkflow`
 * or `restartWorkflowStep`.
 */
export class WorkflowRunner {
  private readonly stepStates: Map<string, StepState>;
  private readonly stepDefs: Map<string, WorkflowStep>;
  /** Step id → the steps that depend on it. */
  private readonly dependants: Map<string, string[]>;
  private readonly limiter: Limiter;
  private readonly tracker: TreeTracker;
  private readonly dispatch: StepDispatcher;
  private readonly running = new Map<string, Promise<void>>();
  private log: EventLog | undefined;
  private writer: CoalescingStateWriter | undefined;
  private onIdle: (() => void) | undefined;
  private aborted = false;
  private readonly drivenSince = now();

  constructor(
    private readonly runtime: BullswarmRuntime,
    private readonly program: WorkflowProgram,
    private readonly paths: RunPaths,
    readonly state: RunState,
    private readonly selection: Set<string>,
    private readonly options: WorkflowRunOptions,
  ) {
    this.stepStates = new Map(state.steps.map((step) => [step.id, step]));
    this.stepDefs = new Map(program.steps.map((step) => [step.id, step]));
    this.dependants = stepDependants(program.steps);
    this.limiter = new Limiter(state.options.concurrency);
    this.dispatch = options.dispatch ?? defaultStepDispatcher(runtime);
    const homeInTree = relative(state.cwd, runtime.home.home).split(sep).join('/');
    const excluded =
      homeInTree !== '' && !homeInTree.startsWith('..') && !homeInTree.startsWith('/') ? [homeInTree] : [];
    this.tracker = new TreeTracker(state.cwd, excluded);
    this.redact = runRedactor(runtime);
    this.globIgnore = ['**/node_modules/**', '**/.git/**', ...excluded.map((prefix) => `${prefix}/**`)];
  }

  private readonly globIgnore: string[];
  /** What leaves the run (its files, its events) passes through this; see run-redactor.ts. */
  private readonly redact: Redactor;

  /** The most units that held the run's limiter at once (tests, benchmarks). */
  get peakConcurrency(): number {
    return this.limiter.peak;
  }

  /** Runs until nothing more can start, under `claim` (released at the end); returns the result. */
  async run(mode: 'start' | 'resume' | 'restart', claim: RunClaim): Promise<WorkflowRunResult> {
    const onAbort = () => {
      this.aborted = true;
      if (this.running.size === 0) this.onIdle?.();
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
      if (this.options.signal?.aborted) this.aborted = true;
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
      await new Promise<void>((done) => {
        this.onIdle = done;
        this.schedule();
      });
      const ended = now();
      this.state.status = this.aborted ? 'interrupted' : 'finished';
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
      await this.writer.flush();
      const report = this.redact.value(buildReport(this.state));
      writeFileAtomic(this.paths.reportPath, `${JSON.stringify(report, null, 2)}\n`);
      return {
        runId: this.state.runId,
        paths: this.paths,
        state: this.state,
        report,
        exitCode: report.exitCode,
      };
    } finally {
      this.options.signal?.removeEventListener('abort', onAbort);
      await this.log?.close().catch(() => {});
      claim.release();
    }
  }

  // ---- events and state ----------------------------------------------------------------------

  private emit(body: WorkflowEventBody, how: { durable?: boolean; urgent?: boolean } = {}): void {
    const event = this.redact.value({
      seq: ++this.state.lastEventSeq,
      at: now(),
      runId: this.state.runId,
      ...body,
    } as WorkflowEvent);
    this.log?.append(event, how.durable === true);
    this.state.updatedAt = event.at;
    this.writer?.request(how.urgent === true);
    this.options.onEvent?.(event, this.state);
  }

  private writeSchemas(): void {
    for (const step of this.program.steps) {
      if (!step.outputSchema) continue;
      mkdirSync(this.paths.schemasDir, { recursive: true });
      writeFileSync(this.schemaFile(step), `${JSON.stringify(step.outputSchema, null, 2)}\n`);
    }
    mkdirSync(this.paths.candidatesDir, { recursive: true });
  }

  private schemaFile(step: WorkflowStep): string {
    return join(this.paths.schemasDir, `${step.id}.schema.json`);
  }

  // ---- scheduling ------------------------------------------------------------------------------

  /**
   * Starts or blocks steps. With `changed` (a step that just finished), only its dependants are
   * looked at; without, every step (the first pass). Blocking cascades to the blocked step's own
   * dependants, so each step is evaluated O(its dependencies) times per change of a dependency.
   */
  private schedule(changed?: string): void {
    if (!this.aborted) {
      const queue =
        changed === undefined
          ? this.program.steps.map((step) => step.id)
          : [...(this.dependants.get(changed) ?? [])];
      for (let head = 0; head < queue.length; head++) {
        const id = queue[head] as string;
        if (!this.selection.has(id) || this.running.has(id)) continue;
        const def = this.stepDefs.get(id) as WorkflowStep;
        const deps = def.dependsOn.map((dep) => this.stepStates.get(dep) as StepState);
        if (deps.every((dep) => dep.status === 'ok')) {
          this.startStep(def);
          continue;
        }
        const stuck = deps.some(
          (dep) => dep.status !== 'ok' && !this.selection.has(dep.id) && !this.running.has(dep.id),
        );
        if (stuck) {
          this.block(
            def,
            deps.filter((dep) => dep.status !== 'ok').map((dep) => dep.id),
          );
          queue.push(...(this.dependants.get(id) ?? []));
        }
      }
    }
    if (this.running.size === 0) this.onIdle?.();
  }

  private block(def: WorkflowStep, blockedBy: string[]): void {
    const st = this.stepStates.get(def.id) as StepState;
    this.selection.delete(def.id);
    st.status = 'blocked';
    st.blockedBy = blockedBy;
    delete st.why;
    delete st.kind;
    delete st.backAt;
    this.emit({ type: 'step.blocked', step: def.id, blockedBy }, { urgent: true });
  }

  private startStep(def: WorkflowStep): void {
    const task = this.runStep(def)
      .catch((error: unknown) => {
        const st = this.stepStates.get(def.id) as StepState;
        st.status = 'failed';
        st.kind = 'engine';
        st.why = `engine error: ${(error as Error)?.message ?? String(error)}`;
        this.emit(
          { type: 'step.finished', step: def.id, status: 'failed', kind: 'engine', why: st.why },
          { durable: true, urgent: true },
        );
      })
      .finally(() => {
        this.running.delete(def.id);
        this.selection.delete(def.id);
        this.schedule(def.id);
      });
    this.running.set(def.id, task);
  }

  private async runStep(def: WorkflowStep): Promise<void> {
    const st = this.stepStates.get(def.id) as StepState;
    resetStep(st);
    st.status = 'running';
    st.startedAt = now();
    this.emit({ type: 'step.started', step: def.id }, { urgent: true });
    if (def.forEach) await this.runFanOut(def, st);
    else await this.runSingle(def, st);
    const summary = this.summarize(st);
    if (summary.status === 'pending') {
      st.status = 'pending';
      this.writer?.request(true);
      return;
    }
    st.status = summary.status;
    st.endedAt = now();
    if (summary.kind) st.kind = summary.kind;
    if (summary.why) st.why = summary.why;
    if (summary.backAt !== undefined) st.backAt = summary.backAt;
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

  /** A step's verdict from its unit(s). */
  private summarize(st: StepState): {
    status: UnitStatus;
    kind?: FailureKind;
    why?: string;
    backAt?: number;
  } {
    if (!st.fanOut) {
      const unit = st.unit;
      if (!unit || !FINAL_STATUSES.has(unit.status)) return { status: 'pending' };
      return {
        status: unit.status,
        ...(unit.kind === undefined ? {} : { kind: unit.kind }),
        ...(unit.why === undefined ? {} : { why: unit.why }),
        ...(unit.backAt === undefined ? {} : { backAt: unit.backAt }),
      };
    }
    if (st.kind === 'items') return { status: 'failed', kind: 'items', ...(st.why ? { why: st.why } : {}) };
    const items = st.items ?? [];
    if (items.some((item) => !FINAL_STATUSES.has(item.status))) return { status: 'pending' };
    const failed = items.filter((item) => item.status === 'failed');
    const back = items.filter((item) => item.status === 'needs-you');
    if (failed.length === 0 && back.length === 0) return { status: 'ok' };
    const backAts = back.map((item) => item.backAt).filter((at): at is number => at !== undefined);
    const parts = [
      failed.length > 0 ? `${failed.length} of ${items.length} items failed` : '',
      back.length > 0 ? `${back.length} of ${items.length} items came back to you` : '',
    ].filter(Boolean);
    return {
      status: failed.length > 0 ? 'failed' : 'needs-you',
      why: parts.join('; '),
      ...(backAts.length > 0 ? { backAt: Math.min(...backAts) } : {}),
    };
  }

  // ---- steps -----------------------------------------------------------------------------------

  private async runSingle(def: WorkflowStep, st: StepState): Promise<void> {
    if (st.unit?.status === 'ok') return;
    const unit: UnitState = { status: 'pending', action: def.id, attempts: st.unit?.attempts ?? [] };
    st.unit = unit;
    const prepared = this.prepareUnit(def, false, undefined);
    unit.fingerprint = prepared.fingerprint;
    await this.runUnit(def, st, unit, undefined, prepared);
  }

  private async runFanOut(def: WorkflowStep, st: StepState): Promise<void> {
    const expansion = await this.expandItems(def);
    if (!expansion.ok) {
      st.kind = 'items';
      st.why = expansion.why;
      return;
    }
    const previous = st.items ?? [];
    const verified = new Map<string, ItemState>();
    const unfinished = new Map<string, ItemState>();
    for (const item of previous) {
      if (!item.fingerprint || item.status === 'skipped') continue;
      if (item.status === 'ok') verified.set(item.fingerprint, item);
      else if (!unfinished.has(item.fingerprint)) unfinished.set(item.fingerprint, item);
    }
    let nextSlot = st.nextSlot ?? previous.reduce((max, item) => Math.max(max, item.slot + 1), 0);
    const seen = new Map<string, number>();
    const items: ItemState[] = [];
    const prepared = new Map<number, PreparedUnit>();
    let reused = 0;
    for (const value of expansion.items) {
      const unit = this.prepareUnit(def, true, value);
      const fingerprint = unit.fingerprint;
      const original = seen.get(fingerprint);
      const base = { item: value, label: itemLabel(value), fingerprint };
      if (original !== undefined) {
        const slot = nextSlot++;
        items.push({
          ...base,
          slot,
          action: `${def.id}.${slot}`,
          status: 'skipped',
          sameAs: original,
          why: `same as item ${original}`,
          attempts: [],
        });
        continue;
      }
      const done = verified.get(fingerprint);
      if (done) {
        items.push(done);
        seen.set(fingerprint, done.slot);
        reused++;
        continue;
      }
      const before = unfinished.get(fingerprint);
      const slot = before?.slot ?? nextSlot++;
      items.push({
        ...base,
        slot,
        action: `${def.id}.${slot}`,
        status: 'pending',
        attempts: before?.attempts ?? [],
      });
      seen.set(fingerprint, slot);
      prepared.set(slot, unit);
    }
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

  private async expandItems(
    def: WorkflowStep,
  ): Promise<{ ok: true; items: readonly unknown[] } | { ok: false; why: string }> {
    const forEach = def.forEach;
    if (!forEach) return { ok: true, items: [] };
    if (forEach.kind === 'items') return { ok: true, items: forEach.items };
    if (forEach.kind === 'glob') {
      const rendered = renderTemplate(forEach.glob, this.scope(def, false, undefined));
      if (!rendered.ok) return { ok: false, why: `forEach.glob: ${rendered.error}` };
      const files = await fg(rendered.text, {
        cwd: this.state.cwd,
        onlyFiles: true,
        dot: false,
        ignore: this.globIgnore,
      });
      return { ok: true, items: files.sort() };
    }
    const output = this.outputOf(def, forEach.stepId);
    if (output?.data === undefined)
      return { ok: false, why: `forEach.from ${forEach.from}: step ${forEach.stepId} recorded no data` };
    const found = walk(output.data, forEach.path);
    if (!found.found) return { ok: false, why: `forEach.from ${forEach.from}: ${found.why}` };
    if (!Array.isArray(found.value)) {
      return { ok: false, why: `forEach.from ${forEach.from}: expected a list, got ${typeof found.value}` };
    }
    return { ok: true, items: found.value };
  }

  // ---- units -----------------------------------------------------------------------------------

  private scope(def: WorkflowStep, hasItem: boolean, item: unknown): TemplateScope {
    return {
      runId: this.state.runId,
      inputs: this.state.inputs,
      hasItem,
      ...(hasItem ? { item } : {}),
      output: (id) => this.outputOf(def, id),
    };
  }

  /** An upstream step's output as `def` may see it: nothing of a step it is blind to, nothing unfinished. */
  private outputOf(
    def: WorkflowStep,
    id: string,
  ): { data?: unknown; items?: readonly unknown[] } | undefined {
    if (def.blindTo.includes(id)) return undefined;
    const st = this.stepStates.get(id);
    if (st?.status !== 'ok') return undefined;
    if (!st.fanOut) return st.unit?.data === undefined ? {} : { data: st.unit.data };
    const items = st.items ?? [];
    return {
      items: items.map((item) => {
        const source = item.sameAs === undefined ? item : items.find((other) => other.slot === item.sameAs);
        return source?.data ?? null;
      }),
    };
  }

  private prepareUnit(def: WorkflowStep, hasItem: boolean, item: unknown): PreparedUnit {
    const scope = this.scope(def, hasItem, item);
    const errors: string[] = [];
    const render = (text: string, field: string): string => {
      const result = renderTemplate(text, scope);
      if (result.ok) return result.text;
      errors.push(`${field}: ${result.error}`);
      return text;
    };
    const prompt = render(def.prompt ?? '', 'prompt');
    const files = def.files.map((glob, index) => render(glob, `files[${index}]`));
    let gate: StepGate | undefined;
    if (def.gate) {
      gate = {
        command:
          typeof def.gate.command === 'string'
            ? render(def.gate.command, 'gate')
            : def.gate.command.map((arg, index) => render(arg, `gate[${index}]`)),
        ...(def.gate.cwd === undefined ? {} : { cwd: render(def.gate.cwd, 'gate.cwd') }),
        ...(def.gate.timeoutSec === undefined ? {} : { timeoutSec: def.gate.timeoutSec }),
      };
    }
    const dependencyOutputs: Record<string, unknown> = {};
    for (const dep of def.dependsOn) dependencyOutputs[dep] = this.outputOf(def, dep) ?? null;
    const fingerprint = unitFingerprint({
      prompt,
      ...(hasItem ? { item } : {}),
      dependencyOutputs,
      settings: {
        lane: def.lane,
        effort: def.effort,
        files,
        blindTo: def.blindTo,
        route: def.route,
        outputSchema: def.outputSchema,
        gate,
        timeoutSec: def.timeoutSec,
      },
    });
    return {
      ok: errors.length === 0,
      ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
      prompt,
      files,
      ...(gate === undefined ? {} : { gate }),
      fingerprint,
    };
  }

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
    const release = await this.limiter.acquire();
    try {
      if (this.aborted) return;
      unit.status = 'running';
      unit.startedAt = now();
      for (const key of [
        'endedAt',
        'kind',
        'why',
        'backAt',
        'data',
        'schemaOk',
        'schemaErrors',
        'changedFiles',
        'answerPreview',
        'retriesUsed',
      ] as const) {
        delete unit[key];
      }
      this.emit({ type: 'unit.started', ...ref });
      try {
        await this.executeUnit(def, st, unit, prepared, ref);
      } catch (error) {
        this.finishUnit(unit, 'failed', {
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

  private finishUnit(
    unit: UnitState,
    status: UnitStatus,
    fields: { kind?: FailureKind; why?: string; backAt?: number } = {},
  ): void {
    unit.status = status;
    unit.endedAt = now();
    if (fields.kind !== undefined) unit.kind = fields.kind;
    if (fields.why !== undefined) unit.why = fields.why;
    if (fields.backAt !== undefined) unit.backAt = fields.backAt;
  }

  private pinFor(st: StepState): { poolId: string; source: '--worker-pool' | 'step restart' } | undefined {
    if (st.pin && st.pin.source !== 'gate retry') return { poolId: st.pin.poolId, source: st.pin.source };
    const pool = this.state.options.workerPool;
    return pool === undefined ? undefined : { poolId: pool, source: '--worker-pool' };
  }

  private routeFor(def: WorkflowStep): TaskRoute | undefined {
    const route = def.route;
    if (!route) return undefined;
    return {
      ...(route.providers ? { providers: route.providers } : {}),
      ...(route.pools ? { pools: route.pools } : {}),
      ...(route.independentOf
        ? {
            independentOf: route.independentOf.map((step) => ({
              step,
              providerFamilies: this.familiesOf(step),
            })),
          }
        : {}),
    };
  }

  /** The provider families of every pool that ran an attempt of `stepId` (any unit, any outcome). */
  private familiesOf(stepId: string): string[] {
    const st = this.stepStates.get(stepId);
    const families = new Set<string>();
    const units: UnitState[] = st ? [...(st.unit ? [st.unit] : []), ...(st.items ?? [])] : [];
    for (const unit of units) {
      for (const attempt of unit.attempts) {
        const family = attempt.providerFamily ?? this.familyOfPool(attempt.poolId);
        if (family) families.add(family);
      }
    }
    return [...families].sort();
  }

  private familyOfPool(poolId: string): string | undefined {
    const pool = this.runtime.state.pools.find((entry) => entry.id === poolId);
    const connectorId = pool?.connector ?? poolId.split(':')[0];
    return connectorId === undefined ? undefined : this.runtime.connectors.get(connectorId)?.providerFamily;
  }

  private buildPrompt(def: WorkflowStep, unit: UnitState, prepared: PreparedUnit): string {
    let text = '';
    if (def.blindTo.length > 0) text += blindPrefix(def.blindTo, prepared.files);
    text += prepared.prompt;
    text += filesRule(prepared.files);
    if (def.outputSchema) {
      text += schemaInstructions({
        schemaFile: this.schemaFile(def),
        candidateFile: join(this.candidatesDirOf(def, unit), `${unit.action}.json`),
        checkCommand: this.options.checkOutputSchemaCommand ?? ['bullswarm', 'check-output-schema'],
      });
    }
    return text;
  }

  /** The unit's own candidates folder (created on demand; see `unitCandidatesDir`). */
  private candidatesDirOf(def: WorkflowStep, unit: UnitState): string {
    const slot = 'slot' in unit && typeof unit.slot === 'number' ? unit.slot : undefined;
    return unitCandidatesDir(this.paths, def.id, slot);
  }

  private async executeUnit(
    def: WorkflowStep,
    st: StepState,
    unit: UnitState,
    prepared: PreparedUnit,
    ref: { step: string; slot?: number },
  ): Promise<void> {
    if (!prepared.ok) {
      this.finishUnit(unit, 'failed', { kind: 'template', why: prepared.error ?? 'a template has no value' });
      return;
    }
    const key = unit.action;
    this.tracker.register(key, prepared.files);
    try {
      const basePin = this.pinFor(st);
      const route = this.routeFor(def);
      const basePrompt = this.buildPrompt(def, unit, prepared);
      let budget = def.retryAttempts;
      let pin: { poolId: string; source: '--worker-pool' | 'step restart' | 'gate retry' } | undefined =
        basePin;
      let extra = '';
      let purpose: Purpose = 'run';
      let schemaRetried = false;
      let kept: KeptFailure | undefined;
      for (;;) {
        const result = await this.dispatchOnce(def, unit, ref, {
          prompt: basePrompt + extra,
          pin,
          purpose,
          budget,
          route,
          schemaBound: def.outputSchema !== undefined,
        });
        budget -= result.attempts.filter((a) => a.willRetry && RETRY_SPENDING_KINDS.has(a.kind)).length;
        unit.retriesUsed = def.retryAttempts - budget;
        if (result.kind === 'canceled' || (this.aborted && !result.ok)) {
          unit.status = 'pending';
          return;
        }
        if (!result.ok) {
          if (kept && result.attempts.length === 0 && NEEDS_YOU_KINDS.has(result.kind)) {
            if (kept.schemaErrors) {
              unit.schemaOk = false;
              unit.schemaErrors = [...kept.schemaErrors];
            }
            this.finishUnit(unit, 'failed', {
              kind: kept.kind,
              why: `${kept.why} · no retry: ${this.rejections(result)}`,
            });
            return;
          }
          this.finishUnit(unit, NEEDS_YOU_KINDS.has(result.kind) ? 'needs-you' : 'failed', {
            kind: result.kind as FailureKind,
            why: result.why ?? result.kind,
            ...(result.backAt === undefined ? {} : { backAt: result.backAt }),
          });
          return;
        }
        kept = undefined;

        const changes = await this.tracker.check(key);
        unit.changedFiles = [...changes.own];
        if (changes.outside.length > 0) {
          const list = changes.outside.join(', ');
          const shared =
            changes.endedWith.length === 0
              ? ''
              : ` (seen as ${changes.endedWith.join(', ')} also ended; the change may be theirs)`;
          this.finishUnit(unit, 'failed', {
            kind: 'files',
            why:
              (prepared.files.length === 0
                ? `declared no files but changed: ${list}`
                : `changed files outside its files (${prepared.files.join(', ')}): ${list}`) + shared,
          });
          return;
        }

        if (prepared.gate) {
          const logFile = join(this.paths.gatesDir, `${unit.action}-${unit.attempts.length}.log`);
          const gate = await runGate({
            command: prepared.gate.command,
            cwd: resolve(this.state.cwd, prepared.gate.cwd ?? '.'),
            timeoutSec: prepared.gate.timeoutSec ?? DEFAULT_GATE_TIMEOUT_SEC,
            logFile,
            env: { BULLSWARM_WORKFLOW_RUN: this.state.runId, BULLSWARM_WORKFLOW_STEP: def.id },
            ...(this.options.signal === undefined ? {} : { signal: this.options.signal }),
          });
          await this.tracker.absorb();
          const retry = !gate.ok && budget > 0 && result.poolId !== null && !this.aborted;
          this.emit({
            type: 'gate.finished',
            ...ref,
            ok: gate.ok,
            exitCode: gate.exitCode,
            logFile,
            ...(gate.ok ? {} : { why: gate.why }),
          });
          if (!gate.ok) {
            if (this.aborted) {
              unit.status = 'pending';
              return;
            }
            if (retry && result.poolId !== null) {
              budget -= 1;
              unit.retriesUsed = def.retryAttempts - budget;
              this.markEngineRetry(unit, 'gate-retry', gate.why);
              kept = { kind: 'gate', why: gate.why };
              pin = { poolId: result.poolId, source: 'gate retry' };
              purpose = 'gate-retry';
              extra = gateRetryNote(gate.why, gate.tail);
              continue;
            }
            this.finishUnit(unit, 'failed', { kind: 'gate', why: gate.why });
            return;
          }
        }

        if (def.outputSchema) {
          const object = lastJsonObject(result.answer ?? '');
          const errors: OutputSchemaProblem[] =
            object === undefined
              ? [{ path: '$', message: 'the answer holds no JSON object' }]
              : validateOutput(def.outputSchema, object);
          if (errors.length > 0) {
            const why = `the answer does not match its outputSchema: ${errors
              .slice(0, 3)
              .map((e) => `${e.path}: ${e.message}`)
              .join('; ')}${errors.length > 3 ? ` (+${errors.length - 3} more)` : ''}`;
            if (!schemaRetried) {
              schemaRetried = true;
              this.markEngineRetry(unit, 'schema-retry', why);
              kept = { kind: 'schema', why, schemaErrors: errors };
              pin = basePin;
              purpose = 'schema-retry';
              extra = schemaRetryNote(errors, object === undefined);
              continue;
            }
            unit.schemaOk = false;
            unit.schemaErrors = errors;
            this.finishUnit(unit, 'failed', { kind: 'schema', why });
            return;
          }
          unit.data = object;
          unit.schemaOk = true;
        }
        const answer = result.answer ?? '';
        unit.answerPreview = answer.length > 400 ? `${answer.slice(0, 399)}…` : answer;
        this.finishUnit(unit, 'ok');
        return;
      }
    } finally {
      this.tracker.unregister(key);
    }
  }

  /** Marks the unit's last attempt as followed by an engine retry (gate or schema). */
  private markEngineRetry(unit: UnitState, followedBy: 'gate-retry' | 'schema-retry', why: string): void {
    const last = unit.attempts[unit.attempts.length - 1];
    if (!last) return;
    last.willRetry = true;
    last.followedBy = followedBy;
    last.retryWhy = why;
  }

  /** `<pool> <reason>; …` of a pick that found no pool (the `· no retry:` list). */
  private rejections(result: StepDispatchResult): string {
    const entries = result.decision.rejected
      .filter((rejection) => rejection.reason !== 'not the pinned pool')
      .map((rejection) => `${this.runtime.label(rejection.poolId)} ${rejection.reason}`);
    return entries.length > 0 ? entries.join('; ') : (result.why ?? result.reason);
  }

  private async dispatchOnce(
    def: WorkflowStep,
    unit: UnitState,
    ref: { step: string; slot?: number },
    how: {
      prompt: string;
      pin: { poolId: string; source: '--worker-pool' | 'step restart' | 'gate retry' } | undefined;
      purpose: Purpose;
      budget: number;
      route: TaskRoute | undefined;
      schemaBound: boolean;
    },
  ): Promise<StepDispatchResult> {
    const records = new Map<number, AttemptRecord>();
    /** Records a new attempt of the unit (from its start event, or from the result when no event came). */
    const track = (
      attempt: Pick<AttemptRecord, 'attempt' | 'poolId' | 'poolLabel' | 'model' | 'reason' | 'outputFile'>,
      startedAt: number,
    ): AttemptRecord => {
      const record: AttemptRecord = {
        attempt: attempt.attempt,
        purpose: how.purpose,
        poolId: attempt.poolId,
        poolLabel: attempt.poolLabel,
        ...this.familyField(attempt.poolId),
        model: attempt.model,
        reason: attempt.reason,
        outputFile: attempt.outputFile,
        startedAt,
      };
      records.set(attempt.attempt, record);
      unit.attempts.push(record);
      return record;
    };
    const onEvent = (event: StepDispatchEvent) => {
      if (event.type === 'attempt.started') {
        track(event, event.at);
        unit.poolId = event.poolId;
        unit.poolLabel = event.poolLabel;
        unit.reason = event.reason;
        this.emit({
          type: 'attempt.started',
          ...ref,
          attempt: event.attempt,
          purpose: how.purpose,
          poolId: event.poolId,
          poolLabel: event.poolLabel,
          model: event.model,
          reason: event.reason,
          outputFile: event.outputFile,
        });
      } else if (event.type === 'attempt.finished') {
        const record = records.get(event.attempt);
        if (record) applyReport(record, event);
        this.emit({
          type: 'attempt.finished',
          ...ref,
          attempt: event.attempt,
          poolId: event.poolId,
          poolLabel: event.poolLabel,
          kind: event.kind,
          why: event.why,
          willRetry: event.willRetry,
          stalled: event.stalled,
          ...(event.partialOutput === undefined ? {} : { partialOutput: event.partialOutput }),
          ...(event.silentSec === undefined ? {} : { silentSec: event.silentSec }),
          startedAt: event.startedAt,
          endedAt: event.endedAt,
          ...(event.resetsAt === undefined ? {} : { backAt: event.resetsAt }),
        });
      } else if (event.type === 'throttle.backoff') {
        this.emit({
          type: 'throttle.backoff',
          ...ref,
          poolId: event.poolId,
          waitMs: event.waitMs,
          backoff: event.backoff,
        });
      }
    };
    const timeoutSec = def.timeoutSec ?? this.program.settings.timeoutSec;
    const result = await this.dispatch({
      action: unit.action,
      prompt: how.prompt,
      lane: def.lane,
      tier: def.effort,
      cwd: this.state.cwd,
      ...(how.schemaBound ? { addDirs: [this.ownCandidatesDir(def, unit)] } : {}),
      outputDir: this.paths.attemptsDir,
      ...(how.route === undefined ? {} : { route: how.route }),
      ...(how.pin === undefined ? {} : { pin: how.pin }),
      kind: 'workflow-step',
      retryAttempts: Math.max(0, how.budget),
      throttlePolicy: 'backoff',
      ...(timeoutSec === undefined ? {} : { timeoutSec }),
      ...(this.options.signal === undefined ? {} : { signal: this.options.signal }),
      onEvent,
      extraEnv: { BULLSWARM_WORKFLOW_RUN: this.state.runId, BULLSWARM_WORKFLOW_STEP: def.id },
    });
    // The result's attempt reports are authoritative (events may be missing for a dispatcher that sends none).
    for (const report of result.attempts) {
      applyReport(records.get(report.attempt) ?? track(report, report.startedAt), report);
    }
    if (result.poolId !== null && result.attempts.length > 0) {
      unit.poolId = result.poolId;
      unit.poolLabel = this.runtime.label(result.poolId);
      unit.reason = result.attempts[result.attempts.length - 1]?.reason ?? result.reason;
    } else if (unit.reason === undefined) {
      unit.reason = result.reason;
    }
    return result;
  }

  /** Creates the unit's candidates folder and returns it (the one folder its worker is handed). */
  private ownCandidatesDir(def: WorkflowStep, unit: UnitState): string {
    const dir = this.candidatesDirOf(def, unit);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  private familyField(poolId: string): { providerFamily?: string } {
    const family = this.familyOfPool(poolId);
    return family === undefined ? {} : { providerFamily: family };
  }
}

function applyReport(
  record: AttemptRecord,
  report: {
    endedAt: number;
    kind: string;
    why: string;
    willRetry: boolean;
    exitCode: number | null;
    stalled: boolean;
    resetsAt?: number;
  },
): void {
  record.endedAt = report.endedAt;
  record.kind = report.kind;
  record.why = report.why;
  record.willRetry = report.willRetry;
  record.exitCode = report.exitCode;
  record.stalled = report.stalled;
  if (report.resetsAt !== undefined) record.backAt = report.resetsAt;
}
