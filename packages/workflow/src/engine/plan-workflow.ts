import { type BullswarmRuntime, routeTask } from '@bullswarm/dispatch';
import type { TaskPin, TaskRoute } from '@bullswarm/pacing';
import type { WorkflowProgram, WorkflowStep } from '../program/workflow-program';
import { resolveInputs } from './resolve-inputs';
import { resolveWorkerPool } from './resolve-worker-pool';

/** One step of a dry run: the pool it would get now, and why. */
export interface PlannedStep {
  readonly id: string;
  readonly level: number;
  /** The pool routing picks now; null when none can take it. */
  readonly poolId: string | null;
  readonly poolLabel: string | null;
  readonly model: string | null;
  /** The reason line from routing (pacing's words). */
  readonly reason: string;
  /** What a fan-out expands to: a count (literal items) or where its items come from. */
  readonly items?: string;
  /** Notes: `independentOf` is resolved when the upstream steps have run, etc. */
  readonly notes: readonly string[];
}

/** Options of {@link planWorkflow}. */
export interface PlanWorkflowOptions {
  readonly runtime: BullswarmRuntime;
  readonly program: WorkflowProgram;
  readonly inputs?: Readonly<Record<string, string>>;
  /** Pin every step to this pool (id or label; the CLI's `--worker-pool`). */
  readonly workerPool?: string;
  /** How the reason lines name that pin: the front end's word for its option (see pacing's `TaskPin`). */
  readonly pinShownAs?: string;
}

/**
 * `workflow goal --dry-run`: for each step, the pool routing would give it now and the reason line,
 * from `routeTask` over the live pools — nothing is spawned and no run is recorded. Each step is
 * routed as if alone (in-flight load of the run's own earlier steps is not simulated), and
 * `route.independentOf` cannot be resolved before the upstream steps ran, so it is left out and noted.
 */
export async function planWorkflow(options: PlanWorkflowOptions): Promise<PlannedStep[]> {
  const { runtime, program } = options;
  resolveInputs(program, options.inputs);
  const pin: TaskPin | undefined =
    options.workerPool === undefined
      ? undefined
      : {
          poolId: resolveWorkerPool(runtime, options.workerPool),
          source: 'operator',
          ...(options.pinShownAs === undefined ? {} : { shownAs: options.pinShownAs }),
        };
  const planned: PlannedStep[] = [];
  for (const step of program.steps) {
    const notes: string[] = [];
    const route = planRoute(step, notes);
    const { decision } = await routeTask(runtime, {
      lane: step.lane,
      tier: step.effort,
      kind: 'workflow-step',
      ...(route === undefined ? {} : { route }),
      ...(pin === undefined ? {} : { pin }),
    });
    planned.push({
      id: step.id,
      level: step.level,
      poolId: decision.poolId,
      poolLabel: decision.poolId === null ? null : runtime.label(decision.poolId),
      model: decision.model,
      reason: decision.reason,
      ...(step.forEach ? { items: describeItems(step) } : {}),
      notes,
    });
  }
  return planned;
}

function planRoute(step: WorkflowStep, notes: string[]): TaskRoute | undefined {
  const route = step.route;
  if (!route) return undefined;
  if (route.independentOf && route.independentOf.length > 0) {
    notes.push(`independentOf ${route.independentOf.join(', ')} is resolved when those steps have run`);
  }
  if (!route.providers && !route.pools) return undefined;
  return {
    ...(route.providers ? { providers: route.providers } : {}),
    ...(route.pools ? { pools: route.pools } : {}),
  };
}

function describeItems(step: WorkflowStep): string {
  const forEach = step.forEach;
  if (!forEach) return '';
  const cap = forEach.concurrency === undefined ? '' : `, at most ${forEach.concurrency} at once`;
  if (forEach.kind === 'items') return `${forEach.items.length} items${cap}`;
  if (forEach.kind === 'glob') return `files matching ${forEach.glob}${cap}`;
  return `items from ${forEach.from}${cap}`;
}
