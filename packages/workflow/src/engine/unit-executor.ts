import { join } from 'node:path';
import type { TaskRoute } from '@bullswarm/pacing';
import { lastJsonObject } from '../program/answer-json';
import { type OutputSchemaProblem, validateOutput } from '../program/output-schema';
import type { WorkflowStep } from '../program/workflow-program';
import { unitCandidatesDir } from '../state/run-paths';
import type { AttemptRecord, StepState, UnitState } from '../state/run-state';
import { filesViolation } from './files-check';
import { type KeptFailure, nextUnitAction, type UnitCheck, type UnitNextAction } from './next-unit-action';
import type { RunContext } from './run-context';
import { RETRY_SPENDING_KINDS, type StepDispatcher, type StepDispatchResult } from './step-dispatcher';
import { runStepGate } from './step-gate';
import { blindPrefix, filesRule, gateRetryNote, schemaInstructions, schemaRetryNote } from './step-prompt';
import { finishUnit } from './step-verdict';
import type { TreeTracker } from './tree-tracker';
import { UnitDispatch, type UnitPin } from './unit-dispatch';
import type { PreparedUnit } from './unit-preparer';

/** A unit's place in the run, as events name it. */
export interface UnitRef {
  readonly step: string;
  readonly slot?: number;
}

type Purpose = AttemptRecord['purpose'];

/** The file a schema-bound step's `outputSchema` is written to (`schemas/<step>.schema.json`). */
export function schemaFileOf(paths: RunContext['paths'], step: WorkflowStep): string {
  return join(paths.schemasDir, `${step.id}.schema.json`);
}

/**
 * Runs one prepared unit to its verdict: dispatches it, then checks its `files`, its gate and its
 * output schema, retrying as {@link nextUnitAction} decides (a failed gate on the same pool, a
 * missed schema once). The unit's state is its record; events go through the run.
 */
export class UnitExecutor {
  private readonly unitDispatch: UnitDispatch;

  constructor(
    private readonly ctx: RunContext,
    private readonly tracker: TreeTracker,
    dispatch: StepDispatcher,
  ) {
    this.unitDispatch = new UnitDispatch(ctx, dispatch);
  }

  async execute(
    def: WorkflowStep,
    st: StepState,
    unit: UnitState,
    prepared: PreparedUnit,
    ref: UnitRef,
  ): Promise<void> {
    if (!prepared.ok) {
      finishUnit(unit, 'failed', { kind: 'template', why: prepared.error ?? 'a template has no value' });
      return;
    }
    const key = unit.action;
    // The unit's own signal, following the run's: whatever listens while the unit runs (its agent,
    // a backoff wait, a meter read, its gate) listens here, so the run's one signal keeps no
    // listener per unit in flight (64 of them would trip Node's MaxListenersExceededWarning).
    const signal = AbortSignal.any([this.ctx.signal]);
    this.tracker.register(key, prepared.files);
    try {
      const basePin = this.pinFor(st);
      const route = this.routeFor(def);
      const basePrompt = this.buildPrompt(def, unit, prepared);
      let budget = def.retryAttempts;
      let pin: UnitPin | undefined = basePin;
      let extra = '';
      let purpose: Purpose = 'run';
      let schemaRetried = false;
      let kept: KeptFailure | undefined;
      const decide = (check: UnitCheck): UnitNextAction =>
        nextUnitAction(check, {
          aborted: this.ctx.aborted,
          retriesLeft: budget,
          schemaRetried,
          ...(kept === undefined ? {} : { kept }),
        });
      /** Carries out a verdict or a wait; true when the loop ends. */
      const ended = (next: UnitNextAction): boolean => {
        if (next.action === 'leave-pending') {
          unit.status = 'pending';
          return true;
        }
        if (next.action !== 'finish') return false;
        if (next.schemaErrors) {
          unit.schemaOk = false;
          unit.schemaErrors = [...next.schemaErrors];
        }
        finishUnit(unit, next.status, {
          kind: next.kind,
          why: next.why,
          ...(next.backAt === undefined ? {} : { backAt: next.backAt }),
        });
        return true;
      };
      for (;;) {
        const result = await this.unitDispatch.once(def, unit, ref, {
          prompt: basePrompt + extra,
          pin,
          purpose,
          budget,
          route,
          schemaBound: def.outputSchema !== undefined,
          signal,
        });
        budget -= result.attempts.filter((a) => a.willRetry && RETRY_SPENDING_KINDS.has(a.kind)).length;
        unit.retriesUsed = def.retryAttempts - budget;
        const dispatched = decide({
          stage: 'dispatch',
          ok: result.ok,
          kind: result.kind,
          ...(result.why === undefined ? {} : { why: result.why }),
          ...(result.backAt === undefined ? {} : { backAt: result.backAt }),
          attempts: result.attempts.length,
          noRetry: !result.ok && result.attempts.length === 0 ? this.rejections(result) : '',
        });
        if (ended(dispatched)) return;
        kept = undefined;

        const changes = await this.tracker.check(key);
        unit.changedFiles = [...changes.own];
        const outside = filesViolation(changes, prepared.files);
        if (ended(decide({ stage: 'files', ...(outside === undefined ? {} : { outside }) }))) return;

        if (prepared.gate) {
          const gate = await runStepGate({
            gate: prepared.gate,
            paths: this.ctx.paths,
            cwd: this.ctx.state.cwd,
            runId: this.ctx.state.runId,
            stepId: def.id,
            action: unit.action,
            attempt: unit.attempts.length,
            signal,
            redact: this.ctx.redact,
          });
          await this.tracker.absorb();
          this.ctx.emit({
            type: 'gate.finished',
            ...ref,
            ok: gate.ok,
            exitCode: gate.exitCode,
            logFile: gate.logFile,
            ...(gate.ok ? {} : { why: gate.why }),
          });
          const next = decide({ stage: 'gate', ok: gate.ok, why: gate.why, poolId: result.poolId });
          if (next.action === 'retry' && result.poolId !== null) {
            budget -= 1;
            unit.retriesUsed = def.retryAttempts - budget;
            this.markEngineRetry(unit, 'gate-retry', gate.why);
            kept = next.kept;
            pin = { poolId: result.poolId, source: 'gate-retry' };
            purpose = 'gate-retry';
            extra = gateRetryNote(gate.why, gate.tail);
            continue;
          }
          if (ended(next)) return;
        }

        if (def.outputSchema) {
          const object = lastJsonObject(result.answer ?? '');
          const errors: OutputSchemaProblem[] =
            object === undefined
              ? [{ path: '$', message: 'the answer holds no JSON object' }]
              : validateOutput(def.outputSchema, object);
          const why =
            errors.length === 0
              ? ''
              : `the answer does not match its outputSchema: ${errors
                  .slice(0, 3)
                  .map((e) => `${e.path}: ${e.message}`)
                  .join('; ')}${errors.length > 3 ? ` (+${errors.length - 3} more)` : ''}`;
          const next = decide({ stage: 'schema', problems: errors, why });
          if (next.action === 'retry') {
            schemaRetried = true;
            this.markEngineRetry(unit, 'schema-retry', why);
            kept = next.kept;
            pin = basePin;
            purpose = 'schema-retry';
            extra = schemaRetryNote(errors, object === undefined);
            continue;
          }
          if (ended(next)) return;
          unit.data = object;
          unit.schemaOk = true;
        }
        const answer = result.answer ?? '';
        unit.answerPreview = answer.length > 400 ? `${answer.slice(0, 399)}…` : answer;
        finishUnit(unit, 'ok');
        return;
      }
    } finally {
      this.tracker.unregister(key);
    }
  }

  /**
   * The step's own pin: a step restart's pool, else the run's worker pool (an operator's pin,
   * named in the reason lines as the front end driving the run names it: `pinShownAs`).
   */
  private pinFor(st: StepState): UnitPin | undefined {
    if (st.pin && st.pin.source !== 'gate-retry') return { poolId: st.pin.poolId, source: st.pin.source };
    const pool = this.ctx.state.options.workerPool;
    if (pool === undefined) return undefined;
    const shownAs = this.ctx.options.pinShownAs;
    return { poolId: pool, source: 'operator', ...(shownAs === undefined ? {} : { shownAs }) };
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
              providerFamilies: this.unitDispatch.familiesOf(step),
            })),
          }
        : {}),
    };
  }

  private buildPrompt(def: WorkflowStep, unit: UnitState, prepared: PreparedUnit): string {
    let text = '';
    if (def.blindTo.length > 0) text += blindPrefix(def.blindTo, prepared.files);
    text += prepared.prompt;
    text += filesRule(prepared.files);
    if (def.outputSchema) {
      const slot = 'slot' in unit && typeof unit.slot === 'number' ? unit.slot : undefined;
      text += schemaInstructions({
        schemaFile: schemaFileOf(this.ctx.paths, def),
        candidateFile: join(unitCandidatesDir(this.ctx.paths, def.id, slot), `${unit.action}.json`),
        checkCommand: this.ctx.options.checkOutputSchemaCommand ?? ['bullswarm', 'check-output-schema'],
      });
    }
    return text;
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
      .map((rejection) => `${this.ctx.runtime.label(rejection.poolId)} ${rejection.reason}`);
    return entries.length > 0 ? entries.join('; ') : (result.why ?? result.reason);
  }
}
