import { type BullswarmRuntime, openRuntime } from '@bullswarm/dispatch/routing';
import { formatTime } from '@bullswarm/pacing/internal';
import {
  buildReport,
  listRuns,
  loadRun,
  RUN_ID_PATTERN,
  restartWorkflowStep,
  resumeWorkflow,
  WorkflowError,
  type WorkflowRunResult,
} from '@bullswarm/workflow';
import type { DashboardSource } from './dashboard-source';
import { DashboardInputError } from './why-data';

/** `GET /api/workflows`: the rows of `bullswarm workflow list --json`. */
export function workflowsJson(source: DashboardSource) {
  return listRuns(source.paths.workflowsDir).map((row) => ({
    ...row,
    createdAt: row.createdAt === 0 ? null : formatTime(row.createdAt),
  }));
}

/** Start and end of a step or item (epoch ms), for the graph's time column. */
interface UnitTimes {
  readonly startedAt: number | null;
  readonly endedAt: number | null;
}

/**
 * `GET /api/workflows/:runId`: what `bullswarm workflow show --json` prints (the report, viewOnly,
 * live), plus `times`: each step's and item's start and end, which the report does not carry.
 * Undefined when there is no such run.
 */
export function workflowDetailJson(source: DashboardSource, runId: string) {
  if (!RUN_ID_PATTERN.test(runId)) return undefined;
  let loaded: ReturnType<typeof loadRun>;
  try {
    loaded = loadRun(source.paths.workflowsDir, runId);
  } catch (error) {
    if (WorkflowError.isInstance(error) && error.kind === 'run-not-found') return undefined;
    throw error;
  }
  const times: Record<string, UnitTimes & { readonly items: Record<string, UnitTimes> }> = {};
  for (const step of loaded.state.steps) {
    const items: Record<string, UnitTimes> = {};
    for (const item of step.items ?? []) {
      items[String(item.slot)] = { startedAt: item.startedAt ?? null, endedAt: item.endedAt ?? null };
    }
    times[step.id] = { startedAt: step.startedAt ?? null, endedAt: step.endedAt ?? null, items };
  }
  return {
    ...buildReport(loaded.state, loaded.live),
    viewOnly: loaded.viewOnly,
    live: loaded.live,
    status: loaded.state.status,
    times,
  };
}

/** A resume or restart the dashboard started, driven in this process. */
export interface WorkflowDrive {
  readonly runId: string;
  readonly action: 'resume' | 'restart';
  readonly step?: string;
  readonly done: Promise<WorkflowRunResult | undefined>;
}

/**
 * The resumes and restarts the dashboard drives (its buttons): each in this process, over a
 * runtime of its own, in the background (the request answers as soon as the drive has started; the
 * page follows it through the live updates). `close()` stops them all (running attempts are
 * canceled; `workflow resume` picks them up) and waits for them to end.
 */
export class WorkflowDrives {
  private readonly source: DashboardSource;
  private readonly checkOutputSchemaCommand: readonly string[] | undefined;
  private readonly abort = new AbortController();
  private readonly active = new Map<string, WorkflowDrive>();
  /** The last error of a drive per run (shown on the run's page). */
  readonly lastErrors = new Map<string, string>();

  constructor(source: DashboardSource, checkOutputSchemaCommand?: readonly string[]) {
    this.source = source;
    this.checkOutputSchemaCommand = checkOutputSchemaCommand;
  }

  /** Whether this dashboard is driving a run now. */
  driving(runId: string): boolean {
    return this.active.has(runId);
  }

  /**
   * Starts `workflow resume <runId>` (or `restart <runId> <step>`) in the background. Checks first
   * that the run exists and can be driven (not view-only, no other process drives it), so a bad
   * request is answered with the reason instead of failing later.
   */
  async start(runId: string, action: 'resume' | 'restart', step?: string): Promise<WorkflowDrive> {
    if (!RUN_ID_PATTERN.test(runId)) throw new DashboardInputError('runId', `no workflow run ${runId}`);
    if (this.active.has(runId)) {
      throw new DashboardInputError('runId', `the dashboard is already driving run ${runId}`);
    }
    const loaded = loadRun(this.source.paths.workflowsDir, runId);
    if (loaded.viewOnly) {
      throw new DashboardInputError('runId', `run ${runId} was saved by another engine: view-only`);
    }
    if (loaded.live) {
      throw new DashboardInputError('runId', `run ${runId} is being driven by another process right now`);
    }
    if (action === 'restart' && !loaded.state.steps.some((s) => s.id === step)) {
      throw new DashboardInputError('step', `run ${runId} has no step "${step ?? ''}"`);
    }
    if (this.abort.signal.aborted) throw new DashboardInputError('runId', 'the dashboard is stopping');
    const runtime: BullswarmRuntime = await openRuntime(this.source.runtimeOptions(true));
    const options = {
      runtime,
      runId,
      signal: this.abort.signal,
      ...(this.checkOutputSchemaCommand === undefined
        ? {}
        : { checkOutputSchemaCommand: this.checkOutputSchemaCommand }),
    };
    this.lastErrors.delete(runId);
    const done = (async () => {
      try {
        return action === 'resume'
          ? await resumeWorkflow(options)
          : await restartWorkflowStep({ ...options, stepId: step! });
      } catch (error) {
        this.lastErrors.set(runId, (error as Error).message);
        return undefined;
      } finally {
        await runtime.close();
        this.active.delete(runId);
      }
    })();
    const drive: WorkflowDrive = { runId, action, ...(step === undefined ? {} : { step }), done };
    this.active.set(runId, drive);
    return drive;
  }

  /** Stops every drive and waits for them to end. */
  async close(): Promise<void> {
    this.abort.abort();
    await Promise.all([...this.active.values()].map((drive) => drive.done));
  }
}
