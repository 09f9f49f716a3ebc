import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isRecordedProcessAlive, parseJsonText } from '@bullswarm/connectors/internal';
import { WorkflowError } from '../errors/workflow-error';
import { jsonPath } from '../program/json-path';
import { ENGINE_VERSION } from '../version';
import { readEvents } from './event-log';
import { initialRunState } from './initial-state';
import { readProgramRecord } from './program-record';
import { RUN_ID_PATTERN, type RunPaths, runPaths } from './run-paths';
import { countUnits, type RunCounts, type RunState, runStateSchema, STATE_VERSION } from './run-state';
import type { WorkflowEvent } from './workflow-event';

/** A run read from disk. */
export interface LoadedRun {
  readonly paths: RunPaths;
  /** state.json with every newer verdict from events.jsonl replayed onto it. */
  readonly state: RunState;
  /** Saved by another engine version: show and watch only, never resume or restart. */
  readonly viewOnly: boolean;
  /** A live process is driving the run right now. */
  readonly live: boolean;
  /** Events replayed from events.jsonl (newer than state.json). */
  readonly replayed: number;
  /**
   * state.json was missing and the state was rebuilt from program.json and events.jsonl (see
   * {@link rebuildState}); the next drive writes it again.
   */
  readonly rebuilt: boolean;
}

/**
 * Loads run `runId` from a home's workflows directory: zod-checks state.json (a different
 * `stateVersion` or a malformed file is a `run-state-invalid` error naming the file and field), then
 * replays the events newer than `lastEventSeq` — `unit.finished` (a unit's whole verdict),
 * `step.finished`, `step.blocked` — so a verdict written just before a kill -9 is never lost.
 */
export function loadRun(workflowsDir: string, runId: string): LoadedRun {
  if (!RUN_ID_PATTERN.test(runId)) {
    throw new WorkflowError({
      kind: 'run-not-found',
      runId,
      message: `"${runId}" is not a run id (expected wf- and letters/digits, as \`bullswarm workflow list\` shows)`,
    });
  }
  const paths = runPaths(workflowsDir, runId);
  let text: string;
  try {
    text = readFileSync(paths.statePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      if (existsSync(paths.runDir)) return rebuildState(paths, runId);
      throw new WorkflowError({
        kind: 'run-not-found',
        runId,
        filePath: paths.statePath,
        message: `no workflow run ${runId} in ${workflowsDir} (see \`bullswarm workflow list\`)`,
      });
    }
    throw error;
  }
  // The one JSON reader (connectors/internal): a line and column, never the file's text quoted.
  const read = parseJsonText(text);
  if (!read.ok) {
    throw new WorkflowError({
      kind: 'run-state-invalid',
      runId,
      filePath: paths.statePath,
      message: `${paths.statePath} ${read.problem}`,
      cause: read.cause,
    });
  }
  const json = read.value;
  const version = (json as { stateVersion?: unknown } | null)?.stateVersion;
  if (version !== STATE_VERSION) {
    throw new WorkflowError({
      kind: 'run-state-invalid',
      runId,
      filePath: paths.statePath,
      message: `${paths.statePath}: stateVersion ${JSON.stringify(version)} is not readable by this bullswarm (it reads stateVersion ${STATE_VERSION})`,
    });
  }
  const parsed = runStateSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new WorkflowError({
      kind: 'run-state-invalid',
      runId,
      filePath: paths.statePath,
      message: `${paths.statePath}: ${issue ? `${jsonPath(issue.path)}: ${issue.message}` : 'invalid'}`,
    });
  }
  const state = parsed.data;
  const events = readEvents(paths.eventsPath, state.lastEventSeq);
  replayEvents(state, events);
  const live = state.owner !== undefined && isRecordedProcessAlive(state.owner.pid, state.owner.startTime);
  return {
    paths,
    state,
    viewOnly: state.engineVersion !== ENGINE_VERSION,
    live,
    replayed: events.length,
    rebuilt: false,
  };
}

/**
 * A run whose state.json is gone (deleted, or never written by a driver killed at its start) but
 * whose folder remains: its state is rebuilt from `program.json` (the program, inputs and options as
 * run) and every verdict in `events.jsonl` — what a resume needs; nothing verified runs again. When
 * program.json is missing too, the error says exactly what is missing and what to do.
 */
export function rebuildState(paths: RunPaths, runId: string): LoadedRun {
  if (!existsSync(paths.programPath)) {
    const events = readEvents(paths.eventsPath);
    const started = events.find((event) => event.type === 'run.started');
    throw new WorkflowError({
      kind: 'run-state-invalid',
      runId,
      filePath: paths.statePath,
      message:
        `run ${runId} cannot be read: ${paths.statePath} and ${paths.programPath} are both missing ` +
        `(${events.length === 0 ? 'and it has no events' : `its ${events.length} events in ${paths.eventsPath} do not hold the program`}), ` +
        `so it cannot be rebuilt or resumed; start the program again with \`bullswarm workflow goal <program>\`` +
        `${started?.type === 'run.started' ? ` in ${started.cwd}` : ''}, and remove ${paths.runDir} when you no longer need its files`,
    });
  }
  const record = readProgramRecord(paths);
  const events = readEvents(paths.eventsPath);
  const firstAt = events[0]?.at ?? statSync(paths.programPath).mtimeMs;
  const state = initialRunState({
    runId,
    program: record.program,
    inputs: record.inputs,
    ...(record.programFile === undefined ? {} : { programFile: record.programFile }),
    cwd: record.cwd,
    createdAt: firstAt,
    concurrency: record.options?.concurrency ?? record.program.settings.concurrency,
    ...(record.options?.workerPool === undefined ? {} : { workerPool: record.options.workerPool }),
  });
  // Not driven now: interrupted unless the log says it finished (its run.finished is replayed).
  state.status = 'interrupted';
  replayEvents(state, events);
  // Items come back in the order they finished; a run keeps them in discovery (slot) order.
  for (const step of state.steps) step.items?.sort((a, b) => a.slot - b.slot);
  return { paths, state, viewOnly: false, live: false, replayed: events.length, rebuilt: true };
}

/**
 * Throws `run-view-only` when the run was saved by another engine version: it can be shown and
 * watched, but not `verb` (`resumed`, `restarted`).
 */
export function assertNotViewOnly(loaded: LoadedRun, verb: string): void {
  if (!loaded.viewOnly) return;
  const { runId, engineVersion } = loaded.state;
  throw new WorkflowError({
    kind: 'run-view-only',
    runId,
    filePath: loaded.paths.statePath,
    message:
      `run ${runId} was saved by engine ${engineVersion}; this bullswarm runs engine ${ENGINE_VERSION}, ` +
      `so the run is view-only: \`bullswarm workflow show ${runId}\` and \`watch\` still work, but it cannot be ${verb}. ` +
      'Start a new run of the program instead.',
  });
}

/** Applies verdict events newer than the state onto it (mutates `state`). */
export function replayEvents(state: RunState, events: readonly WorkflowEvent[]): void {
  const steps = new Map(state.steps.map((step) => [step.id, step]));
  for (const event of events) {
    if (event.seq <= state.lastEventSeq) continue;
    state.lastEventSeq = event.seq;
    if (event.at > state.updatedAt) state.updatedAt = event.at;
    switch (event.type) {
      case 'unit.finished': {
        const step = steps.get(event.step);
        if (!step) break;
        if (event.slot === undefined) {
          step.unit = event.unit;
        } else {
          const item = event.unit as NonNullable<typeof step.items>[number];
          step.items ??= [];
          const at = step.items.findIndex((entry) => entry.slot === event.slot);
          if (at === -1) step.items.push(item);
          else step.items[at] = item;
          step.nextSlot = Math.max(step.nextSlot ?? 0, event.slot + 1);
        }
        break;
      }
      case 'step.finished': {
        const step = steps.get(event.step);
        if (!step) break;
        step.status = event.status;
        step.endedAt = event.at;
        if (event.why === undefined) delete step.why;
        else step.why = event.why;
        if (event.backAt === undefined) delete step.backAt;
        else step.backAt = event.backAt;
        break;
      }
      case 'step.blocked': {
        const step = steps.get(event.step);
        if (!step) break;
        step.status = 'blocked';
        step.blockedBy = [...event.blockedBy];
        break;
      }
      case 'run.finished':
        state.status = event.status;
        state.endedAt = event.at;
        break;
      default:
        break;
    }
  }
}

/** The outcome of a run, as `workflow list` shows it. */
export type RunOutcome = 'running' | 'interrupted' | 'ok' | 'failed' | 'needs-you';

/** The outcome of a run from its state (`live`: a process is driving it now). */
export function runOutcome(state: RunState, live: boolean): RunOutcome {
  if (state.status === 'running') return live ? 'running' : 'interrupted';
  if (state.status === 'interrupted') return 'interrupted';
  const counts = countUnits(state);
  if (counts.failed > 0) return 'failed';
  if (counts.needsYou > 0 || counts.blocked > 0 || counts.pending > 0) return 'needs-you';
  return 'ok';
}

/** One row of `workflow list`. */
export interface RunSummary {
  readonly runId: string;
  readonly name?: string;
  readonly outcome: RunOutcome;
  readonly counts: RunCounts;
  readonly createdAt: number;
  readonly cwd: string;
  readonly viewOnly: boolean;
  /** Why the run could not be read (the row then has no counts worth reading). */
  readonly problem?: string;
}

/** Every run in a home's workflows directory, newest first. A run that cannot be read is listed with its problem. */
export function listRuns(workflowsDir: string): RunSummary[] {
  if (!existsSync(workflowsDir)) return [];
  const rows: RunSummary[] = [];
  for (const entry of readdirSync(workflowsDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !RUN_ID_PATTERN.test(entry.name)) continue;
    try {
      const run = loadRun(workflowsDir, entry.name);
      rows.push({
        runId: run.state.runId,
        ...(run.state.name === undefined ? {} : { name: run.state.name }),
        outcome: runOutcome(run.state, run.live),
        counts: countUnits(run.state),
        createdAt: run.state.createdAt,
        cwd: run.state.cwd,
        viewOnly: run.viewOnly,
      });
    } catch (error) {
      rows.push({
        runId: entry.name,
        outcome: 'interrupted',
        counts: countUnits({ steps: [] }),
        createdAt: 0,
        cwd: '',
        viewOnly: true,
        problem: (error as Error).message,
      });
    }
  }
  return rows.sort((a, b) => b.createdAt - a.createdAt || a.runId.localeCompare(b.runId));
}
