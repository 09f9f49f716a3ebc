import type { WorkflowStep } from '../program/workflow-program';
import type { StepState } from '../state/run-state';
import { Limiter } from './limiter';

/** What the scheduler asks of the run. */
export interface StepSchedulerHooks {
  /** Runs a step to its verdict (or back to pending). */
  runStep(def: WorkflowStep): Promise<void>;
  /** `runStep` threw: record an engine failure. */
  stepCrashed(def: WorkflowStep, error: unknown): void;
  /** A step can never start (a dependency will not become ok in this run): record it blocked. */
  blocked(def: WorkflowStep, blockedBy: string[]): void;
  /** The run was stopped: start nothing more. */
  readonly aborted: boolean;
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
 * Starts the selected steps as their dependencies turn ok, blocks the ones that never can, and
 * holds the run's concurrency limiter (every unit of every step takes a slot of it; a fan-out's own
 * `concurrency` is an extra cap inside it).
 */
export class StepScheduler {
  /** The run's limiter (`--concurrency`): units acquire a slot to run. */
  readonly limiter: Limiter;
  private readonly stepDefs: Map<string, WorkflowStep>;
  /** Step id → the steps that depend on it. */
  private readonly dependants: Map<string, string[]>;
  private readonly running = new Map<string, Promise<void>>();
  private onIdle: (() => void) | undefined;

  constructor(
    private readonly steps: readonly WorkflowStep[],
    private readonly stepStates: ReadonlyMap<string, StepState>,
    /** The steps this drive may run (start: all; resume: the unfinished; restart: one and its dependants). */
    private readonly selection: Set<string>,
    concurrency: number,
    private readonly hooks: StepSchedulerHooks,
  ) {
    this.stepDefs = new Map(steps.map((step) => [step.id, step]));
    this.dependants = stepDependants(steps);
    this.limiter = new Limiter(concurrency);
  }

  /** Schedules every step; resolves when nothing runs and nothing more can start. */
  drive(): Promise<void> {
    return new Promise<void>((done) => {
      this.onIdle = done;
      this.schedule();
    });
  }

  /** Called when the run is stopped: ends the drive at once if nothing runs. */
  stopped(): void {
    if (this.running.size === 0) this.onIdle?.();
  }

  /**
   * Starts or blocks steps. With `changed` (a step that just finished), only its dependants are
   * looked at; without, every step (the first pass). Blocking cascades to the blocked step's own
   * dependants, so each step is evaluated O(its dependencies) times per change of a dependency.
   */
  private schedule(changed?: string): void {
    if (!this.hooks.aborted) {
      const queue =
        changed === undefined ? this.steps.map((step) => step.id) : [...(this.dependants.get(changed) ?? [])];
      for (let head = 0; head < queue.length; head++) {
        const id = queue[head] as string;
        if (!this.selection.has(id) || this.running.has(id)) continue;
        const def = this.stepDefs.get(id) as WorkflowStep;
        const deps = def.dependsOn.map((dep) => this.stepStates.get(dep) as StepState);
        if (deps.every((dep) => dep.status === 'ok')) {
          this.start(def);
          continue;
        }
        const stuck = deps.some(
          (dep) => dep.status !== 'ok' && !this.selection.has(dep.id) && !this.running.has(dep.id),
        );
        if (stuck) {
          this.selection.delete(def.id);
          this.hooks.blocked(
            def,
            deps.filter((dep) => dep.status !== 'ok').map((dep) => dep.id),
          );
          queue.push(...(this.dependants.get(id) ?? []));
        }
      }
    }
    if (this.running.size === 0) this.onIdle?.();
  }

  private start(def: WorkflowStep): void {
    const task = this.hooks
      .runStep(def)
      .catch((error: unknown) => this.hooks.stepCrashed(def, error))
      .finally(() => {
        this.running.delete(def.id);
        this.selection.delete(def.id);
        this.schedule(def.id);
      });
    this.running.set(def.id, task);
  }
}
