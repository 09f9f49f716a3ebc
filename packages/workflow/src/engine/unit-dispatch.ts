import { mkdirSync } from 'node:fs';
import type { TaskPin, TaskRoute } from '@bullswarm/pacing';
import type { WorkflowStep } from '../program/workflow-program';
import { redactFilesUnder } from '../state/redact-files';
import { unitCandidatesDir } from '../state/run-paths';
import type { AttemptRecord, UnitState } from '../state/run-state';
import type { RunContext } from './run-context';
import type { StepDispatchEvent, StepDispatcher, StepDispatchResult } from './step-dispatcher';

/** The pool a unit's dispatch is pinned to, and why (pacing's `TaskPin`). */
export type UnitPin = TaskPin;

/** One dispatch of a unit: what it is asked and under which pin, purpose and retry budget. */
export interface UnitDispatchHow {
  readonly prompt: string;
  readonly pin: UnitPin | undefined;
  readonly purpose: AttemptRecord['purpose'];
  readonly budget: number;
  readonly route: TaskRoute | undefined;
  readonly schemaBound: boolean;
  /** The unit's own view of the run's stop signal (see UnitExecutor.execute). */
  readonly signal: AbortSignal;
}

/**
 * Sends a unit to dispatch once and records what happened: every attempt into the unit's
 * `attempts` (from dispatch's events as they come, then from its result, which is authoritative)
 * and as run events.
 */
export class UnitDispatch {
  constructor(
    private readonly ctx: RunContext,
    private readonly dispatch: StepDispatcher,
  ) {}

  async once(
    def: WorkflowStep,
    unit: UnitState,
    ref: { step: string; slot?: number },
    how: UnitDispatchHow,
  ): Promise<StepDispatchResult> {
    const { ctx } = this;
    const records = new Map<number, AttemptRecord>();
    /** Records a new attempt of the unit (from its start event, or from the result when no event came). */
    const track = (
      attempt: Pick<AttemptRecord, 'attempt' | 'poolId' | 'poolLabel' | 'model' | 'reason' | 'outputFile'>,
      startedAt: number,
    ): AttemptRecord => {
      const family = this.familyOfPool(attempt.poolId);
      const record: AttemptRecord = {
        attempt: attempt.attempt,
        purpose: how.purpose,
        poolId: attempt.poolId,
        poolLabel: attempt.poolLabel,
        ...(family === undefined ? {} : { providerFamily: family }),
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
        ctx.emit({
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
        ctx.emit({
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
        ctx.emit({
          type: 'throttle.backoff',
          ...ref,
          poolId: event.poolId,
          waitMs: event.waitMs,
          backoff: event.backoff,
        });
      }
    };
    const timeoutSec = def.timeoutSec ?? ctx.program.settings.timeoutSec;
    const result = await this.dispatch({
      action: unit.action,
      prompt: how.prompt,
      lane: def.lane,
      tier: def.effort,
      cwd: ctx.state.cwd,
      ...(how.schemaBound ? { addDirs: [this.ownCandidatesDir(def, unit)] } : {}),
      outputDir: ctx.paths.attemptsDir,
      ...(how.route === undefined ? {} : { route: how.route }),
      ...(how.pin === undefined ? {} : { pin: how.pin }),
      kind: 'workflow-step',
      retryAttempts: Math.max(0, how.budget),
      throttlePolicy: 'backoff',
      ...(timeoutSec === undefined ? {} : { timeoutSec }),
      signal: how.signal,
      onEvent,
      extraEnv: { BULLSWARM_WORKFLOW_RUN: ctx.state.runId, BULLSWARM_WORKFLOW_STEP: def.id },
    });
    // The worker's candidates are files of the home too: a secret in them is redacted in place.
    if (how.schemaBound) redactFilesUnder(this.ownCandidatesDir(def, unit), ctx.redact);
    // The result's attempt reports are authoritative (events may be missing for a dispatcher that sends none).
    for (const report of result.attempts) {
      applyReport(records.get(report.attempt) ?? track(report, report.startedAt), report);
    }
    if (result.poolId !== null && result.attempts.length > 0) {
      unit.poolId = result.poolId;
      unit.poolLabel = ctx.runtime.label(result.poolId);
      unit.reason = result.attempts[result.attempts.length - 1]?.reason ?? result.reason;
    } else if (unit.reason === undefined) {
      unit.reason = result.reason;
    }
    return result;
  }

  /** The provider families of every pool that ran an attempt of `stepId` (any unit, any outcome). */
  familiesOf(stepId: string): string[] {
    const st = this.ctx.stepStates.get(stepId);
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
    const { runtime } = this.ctx;
    const pool = runtime.state.pools.find((entry) => entry.id === poolId);
    const connectorId = pool?.connector ?? poolId.split(':')[0];
    return connectorId === undefined ? undefined : runtime.connectors.get(connectorId)?.providerFamily;
  }

  /** Creates the unit's candidates folder and returns it (the one folder its worker is handed). */
  private ownCandidatesDir(def: WorkflowStep, unit: UnitState): string {
    const slot = 'slot' in unit && typeof unit.slot === 'number' ? unit.slot : undefined;
    const dir = unitCandidatesDir(this.ctx.paths, def.id, slot);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
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
