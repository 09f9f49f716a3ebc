import { type RunOutcome, runOutcome } from './load-run';
import { countUnits, type ItemState, type RunCounts, type RunState, type UnitState } from './run-state';

/** One unit that came back to the user (or failed) and needs them. */
export interface NeedsYouEntry {
  readonly step: string;
  readonly slot?: number;
  readonly label?: string;
  readonly status: 'needs-you' | 'failed' | 'blocked';
  readonly kind?: string;
  readonly why: string;
  /** When the work could go again (epoch ms), when known. */
  readonly backAt?: number;
}

/** A unit in the report. */
export interface ReportUnit {
  readonly status: string;
  readonly poolId?: string;
  readonly poolLabel?: string;
  readonly reason?: string;
  readonly kind?: string;
  readonly why?: string;
  readonly backAt?: number;
  readonly attempts: number;
  readonly outputFiles: readonly string[];
  readonly schemaOk?: boolean;
  readonly schemaErrors?: readonly { readonly path: string; readonly message: string }[];
  readonly data?: unknown;
  readonly changedFiles?: readonly string[];
}

/** A step in the report. */
export interface ReportStep extends Partial<ReportUnit> {
  readonly id: string;
  readonly level: number;
  readonly status: string;
  readonly fanOut: boolean;
  readonly blockedBy?: readonly string[];
  readonly items?: readonly (ReportUnit & {
    readonly slot: number;
    readonly label: string;
    readonly item: unknown;
  })[];
}

/** `report.json`: the machine report of a run (what `--json` prints). */
export interface WorkflowReport {
  readonly reportVersion: 1;
  readonly runId: string;
  readonly name?: string;
  readonly outcome: RunOutcome;
  readonly cwd: string;
  readonly programFile?: string;
  readonly createdAt: number;
  readonly endedAt?: number;
  /** Wall time spent driving the run, over start and resumes (ms). */
  readonly elapsedMs: number;
  readonly counts: RunCounts;
  readonly steps: readonly ReportStep[];
  /** `outputs.<id>.data` and `outputs.<id>.items[i].data`, as templates saw them. */
  readonly outputs: Readonly<
    Record<
      string,
      {
        readonly data?: unknown;
        readonly items?: readonly { readonly item: unknown; readonly data?: unknown }[];
      }
    >
  >;
  readonly needsYou: readonly NeedsYouEntry[];
  /** 0 when every step is ok, 1 otherwise. */
  readonly exitCode: 0 | 1;
}

function reportUnit(unit: UnitState): ReportUnit {
  return {
    status: unit.status,
    ...(unit.poolId === undefined ? {} : { poolId: unit.poolId }),
    ...(unit.poolLabel === undefined ? {} : { poolLabel: unit.poolLabel }),
    ...(unit.reason === undefined ? {} : { reason: unit.reason }),
    ...(unit.kind === undefined ? {} : { kind: unit.kind }),
    ...(unit.why === undefined ? {} : { why: unit.why }),
    ...(unit.backAt === undefined ? {} : { backAt: unit.backAt }),
    attempts: unit.attempts.length,
    outputFiles: unit.attempts.map((attempt) => attempt.outputFile),
    ...(unit.schemaOk === undefined ? {} : { schemaOk: unit.schemaOk }),
    ...(unit.schemaErrors === undefined ? {} : { schemaErrors: unit.schemaErrors }),
    ...(unit.data === undefined ? {} : { data: unit.data }),
    ...(unit.changedFiles === undefined || unit.changedFiles.length === 0
      ? {}
      : { changedFiles: unit.changedFiles }),
  };
}

/** Units that need the user: needs-you and failed units, and blocked steps. */
export function needsYou(state: Pick<RunState, 'steps'>): NeedsYouEntry[] {
  const entries: NeedsYouEntry[] = [];
  const unitEntry = (step: string, unit: UnitState, item?: ItemState): NeedsYouEntry | undefined => {
    if (unit.status !== 'needs-you' && unit.status !== 'failed') return undefined;
    return {
      step,
      ...(item ? { slot: item.slot, label: item.label } : {}),
      status: unit.status,
      ...(unit.kind === undefined ? {} : { kind: unit.kind }),
      why: unit.why ?? unit.status,
      ...(unit.backAt === undefined ? {} : { backAt: unit.backAt }),
    };
  };
  for (const step of state.steps) {
    if (step.status === 'blocked') {
      entries.push({
        step: step.id,
        status: 'blocked',
        why: `waits for ${(step.blockedBy ?? []).join(', ')}`,
      });
      continue;
    }
    if (step.fanOut && step.items) {
      let any = false;
      for (const item of step.items) {
        const entry = unitEntry(step.id, item, item);
        if (entry) {
          entries.push(entry);
          any = true;
        }
      }
      if (!any && (step.status === 'failed' || step.status === 'needs-you')) {
        entries.push({
          step: step.id,
          status: step.status,
          ...(step.kind === undefined ? {} : { kind: step.kind }),
          why: step.why ?? step.status,
          ...(step.backAt === undefined ? {} : { backAt: step.backAt }),
        });
      }
    } else if (step.unit) {
      const entry = unitEntry(step.id, step.unit);
      if (entry) entries.push(entry);
    }
  }
  return entries;
}

/** The earliest known back-at among the run's needs-you units, if any. */
export function earliestBackAt(state: Pick<RunState, 'steps'>): number | undefined {
  let earliest: number | undefined;
  for (const entry of needsYou(state)) {
    if (entry.status === 'needs-you' && entry.backAt !== undefined) {
      earliest = earliest === undefined ? entry.backAt : Math.min(earliest, entry.backAt);
    }
  }
  return earliest;
}

/** The data of a fan-out item (a skipped duplicate shares its original's). */
function itemData(items: readonly ItemState[], item: ItemState): unknown {
  if (item.sameAs !== undefined) return items.find((other) => other.slot === item.sameAs)?.data;
  return item.data;
}

/** Builds the machine report of a run from its state. */
export function buildReport(state: RunState, live = false): WorkflowReport {
  const counts = countUnits(state);
  const outcome = runOutcome(state, live);
  const outputs: Record<string, { data?: unknown; items?: { item: unknown; data?: unknown }[] }> = {};
  const steps = state.steps.map((step): ReportStep => {
    if (step.fanOut) {
      const items = step.items ?? [];
      if (step.status === 'ok') {
        outputs[step.id] = {
          items: items.map((item) => {
            const data = itemData(items, item);
            return { item: item.item, ...(data === undefined ? {} : { data }) };
          }),
        };
      }
      return {
        id: step.id,
        level: step.level,
        status: step.status,
        fanOut: true,
        ...(step.kind === undefined ? {} : { kind: step.kind }),
        ...(step.why === undefined ? {} : { why: step.why }),
        ...(step.backAt === undefined ? {} : { backAt: step.backAt }),
        ...(step.blockedBy === undefined ? {} : { blockedBy: step.blockedBy }),
        items: items.map((item) => ({
          slot: item.slot,
          label: item.label,
          item: item.item,
          ...reportUnit(item),
        })),
      };
    }
    if (step.status === 'ok' && step.unit?.data !== undefined) outputs[step.id] = { data: step.unit.data };
    return {
      ...(step.unit ? reportUnit(step.unit) : {}),
      id: step.id,
      level: step.level,
      status: step.status,
      fanOut: false,
      ...(step.blockedBy === undefined ? {} : { blockedBy: step.blockedBy }),
    };
  });
  return {
    reportVersion: 1,
    runId: state.runId,
    ...(state.name === undefined ? {} : { name: state.name }),
    outcome,
    cwd: state.cwd,
    ...(state.programFile === undefined ? {} : { programFile: state.programFile }),
    createdAt: state.createdAt,
    ...(state.endedAt === undefined ? {} : { endedAt: state.endedAt }),
    elapsedMs: state.activeMs ?? 0,
    counts,
    steps,
    outputs,
    needsYou: needsYou(state),
    exitCode: outcome === 'ok' ? 0 : 1,
  };
}
