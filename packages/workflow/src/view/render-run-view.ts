import { formatTime } from '@bullswarm/pacing/internal';
import { needsYou } from '../state/build-report';
import {
  type AttemptRecord,
  countUnits,
  type ItemState,
  type RunState,
  type StepState,
  type UnitState,
  type UnitStatus,
} from '../state/run-state';
import { displayWidth, padToWidth, truncateToWidth } from './display-width';
import { formatElapsed } from './format-elapsed';

/** The marks of the live view. */
export const VIEW_MARKS = {
  ok: '✓',
  failed: '✗',
  'needs-you': '↩',
  running: '⟡',
  blocked: '⋈',
  skipped: '⏭',
  pending: '·',
} as const satisfies Record<UnitStatus, string>;

/** The mark of work recorded as running in a run no process drives (killed or stopped). */
export const INTERRUPTED_MARK = '‖';

/** Options of {@link renderRunView}. */
export interface RenderRunViewOptions {
  /** Terminal columns; every line is cut to fit. */
  readonly width: number;
  /**
   * Now (epoch ms, wall clock) for the elapsed times of running work. When no process drives the
   * run (`live` false) times stop at its last recorded event (`updatedAt`) instead.
   */
  readonly now: number;
  /** A fan-out with more items than this collapses to a summary row plus its running and failed items (default 8). */
  readonly collapseAbove?: number;
  /** Most item rows a collapsed fan-out shows (default 8). */
  readonly maxItemRows?: number;
  /** The report's path, printed under the summary once the run has ended. */
  readonly reportPath?: string;
  /** A process is driving the run now (default: the state says `running`). */
  readonly live?: boolean;
}

const NAME_WIDTH = 30;
const POOL_WIDTH = 14;
const TIME_WIDTH = 8;

/**
 * The live view of a run as lines for a terminal `width` columns wide — pure: the same state,
 * width and time give the same lines. Phases are dependency levels (`▐ level 1/3 · <step ids>`),
 * one row per step or fan-out item with its mark, pool label, elapsed time and verdict; under a
 * failed row `↳ retrying on another pool` only when that attempt's `willRetry` is true (a gate or
 * schema retry says so); once the retry runs its row says `running · attempt <n> on <pool> (retry
 * after <why the attempt before failed>)` until it ends; and `↳ no retry left` when the unit failed for good; fan-outs with many
 * items collapse; then a summary line with counts and elapsed time, the report path when the run
 * ended, and a needs-you block (each unit that came back, failed or is blocked, with why and back at).
 * When no process drives the run (`live` false: killed, or stopped), work recorded as running is
 * drawn as interrupted (`‖ … interrupted`) and every time stops at the last recorded event.
 */
export function renderRunView(state: RunState, options: RenderRunViewOptions): string[] {
  const width = Math.max(20, options.width);
  const collapseAbove = options.collapseAbove ?? 8;
  const maxItemRows = options.maxItemRows ?? 8;
  const live = options.live ?? state.status === 'running';
  const lines: string[] = [];
  const push = (line: string) => lines.push(truncateToWidth(line, width));
  const byId = new Map(state.steps.map((step) => [step.id, step]));
  const now = live ? options.now : Math.min(options.now, state.updatedAt);

  push(`bullswarm workflow · ${state.name ?? 'unnamed'} · run ${state.runId}`);
  state.levels.forEach((ids, index) => {
    push('');
    const steps = ids.map((id) => byId.get(id)).filter((step): step is StepState => step !== undefined);
    const left = `▐ level ${index + 1}/${state.levels.length} · ${ids.join(', ')}`;
    const right = phaseStatus(steps, live);
    const room = width - displayWidth(right) - 1;
    push(`${padToWidth(left, Math.max(1, room))} ${right}`);
    for (const step of steps) {
      for (const line of stepRows(step, now, collapseAbove, maxItemRows, live)) push(line);
    }
  });

  push('');
  push(`── summary ${'─'.repeat(Math.max(0, width - 11))}`);
  const counts = countUnits(state);
  const parts = [
    `${VIEW_MARKS.ok} ${counts.ok}`,
    `${VIEW_MARKS.failed} ${counts.failed}`,
    `${VIEW_MARKS['needs-you']} ${counts.needsYou}`,
    `${VIEW_MARKS.blocked} ${counts.blocked}`,
  ];
  if (counts.running > 0) {
    parts.push(live ? `${VIEW_MARKS.running} ${counts.running}` : `${INTERRUPTED_MARK} ${counts.running}`);
  }
  if (counts.skipped > 0) parts.push(`${VIEW_MARKS.skipped} ${counts.skipped}`);
  if (counts.pending > 0) parts.push(`pending ${counts.pending}`);
  const elapsedMs =
    (state.activeMs ?? 0) + (state.drivenSince !== undefined ? Math.max(0, now - state.drivenSince) : 0);
  const countText = parts.join(' · ');
  const elapsedText = `elapsed ${formatElapsed(elapsedMs)}`;
  const gap = width - displayWidth(countText) - displayWidth(elapsedText);
  push(gap >= 2 ? `${countText}${' '.repeat(gap)}${elapsedText}` : `${countText} · ${elapsedText}`);
  if (!live) {
    const ended =
      state.status === 'interrupted' || state.status === 'running'
        ? `interrupted · resume with: bullswarm workflow resume ${state.runId}`
        : undefined;
    if (ended) push(ended);
    if (options.reportPath && state.status === 'finished') push(`report: ${options.reportPath}`);
  }

  const entries = needsYou(state);
  if (entries.length > 0) {
    push('');
    push('needs you:');
    for (const entry of entries) {
      const mark = entry.status === 'blocked' ? VIEW_MARKS.blocked : VIEW_MARKS[entry.status];
      const name = entry.slot === undefined ? entry.step : `${entry.step}[${entry.label ?? entry.slot}]`;
      // back at first: a long why is cut to the width, the time must stay readable.
      const back = entry.backAt === undefined ? '' : `back at ${formatTime(entry.backAt)} · `;
      push(`  ${mark} ${padToWidth(name, NAME_WIDTH)} ${back}${entry.why}`);
    }
  }
  return lines;
}

function phaseStatus(steps: readonly StepState[], live: boolean): string {
  if (steps.some((step) => step.status === 'running'))
    return live ? '⟡ running' : `${INTERRUPTED_MARK} interrupted`;
  if (steps.length > 0 && steps.every((step) => step.status === 'ok')) return '✓ done';
  if (steps.some((step) => step.status === 'failed')) return '✗ failed';
  if (steps.some((step) => step.status === 'needs-you')) return '↩ needs you';
  if (steps.some((step) => step.status === 'blocked')) return '⋈ blocked';
  return '· waiting';
}

function stepRows(
  step: StepState,
  now: number,
  collapseAbove: number,
  maxItemRows: number,
  live: boolean,
): string[] {
  const stopped = !live && step.status === 'running';
  const stepMark = stopped ? INTERRUPTED_MARK : markOf(step.status);
  if (!step.fanOut || step.items === undefined || (step.items.length === 0 && step.status !== 'ok')) {
    if (step.fanOut)
      return [row(stepMark, step.id, '—', elapsed(step, now), stopped ? 'interrupted' : stepVerdict(step))];
    const unit = step.unit;
    if (!unit || step.status === 'blocked' || step.status === 'pending') {
      return [row(markOf(step.status), step.id, unit?.poolLabel ?? '—', '—', stepVerdict(step))];
    }
    return unitRows(step.id, unit, step.status === 'running' ? 'running' : unit.status, now, live);
  }
  const items = step.items;
  const total = items.length;
  const name = (item: ItemState, index: number) => `${step.id}[${index}/${total}] ${item.label}`;
  if (total <= collapseAbove) {
    if (total === 0) return [row(markOf(step.status), step.id, '—', elapsed(step, now), 'ok · 0 items')];
    return items.flatMap((item, index) => unitRows(name(item, index), item, item.status, now, live));
  }
  const tally = new Map<UnitStatus, number>();
  for (const item of items) tally.set(item.status, (tally.get(item.status) ?? 0) + 1);
  const summary = (['ok', 'failed', 'needs-you', 'running', 'blocked', 'skipped', 'pending'] as const)
    .filter((status) => (tally.get(status) ?? 0) > 0)
    .map((status) =>
      status === 'pending'
        ? `pending ${tally.get(status)}`
        : `${status === 'running' && !live ? INTERRUPTED_MARK : VIEW_MARKS[status]} ${tally.get(status)}`,
    )
    .join(' · ');
  const rows = [row(stepMark, `${step.id} (${total} items)`, '', elapsed(step, now), summary)];
  const shown = items
    .map((item, index) => ({ item, index }))
    .filter(
      ({ item }) => item.status === 'running' || item.status === 'failed' || item.status === 'needs-you',
    );
  for (const { item, index } of shown.slice(0, maxItemRows))
    rows.push(...unitRows(name(item, index), item, item.status, now, live));
  if (shown.length > maxItemRows) rows.push(`    … ${shown.length - maxItemRows} more running or failed`);
  return rows;
}

function unitRows(name: string, unit: UnitState, status: UnitStatus, now: number, live: boolean): string[] {
  const last: AttemptRecord | undefined = unit.attempts[unit.attempts.length - 1];
  const time =
    unit.startedAt === undefined ? '—' : formatElapsed(Math.max(0, (unit.endedAt ?? now) - unit.startedAt));
  const pool = unit.poolLabel ?? '—';
  if (status === 'running' && !live) {
    return [row(INTERRUPTED_MARK, name, pool, time, 'interrupted · resume re-runs it')];
  }
  if (status === 'running' && last?.endedAt !== undefined && last.willRetry) {
    // The last attempt failed (or its gate/schema did) and another follows.
    const why = last.followedBy ? (last.retryWhy ?? last.followedBy) : (last.why ?? last.kind ?? 'failed');
    const arrow =
      last.followedBy === 'gate-retry'
        ? `↳ retrying on ${last.poolLabel} (gate retry)`
        : last.followedBy === 'schema-retry'
          ? '↳ retrying with the schema errors (schema retry)'
          : last.kind === 'throttle'
            ? `↳ backing off, then retrying on ${last.poolLabel} (throttle)`
            : '↳ retrying on another pool';
    return [row(VIEW_MARKS.failed, name, last.poolLabel, time, `fail · ${why}`), `    ${arrow}`];
  }
  const lines = [
    row(markOf(status), name, pool, status === 'pending' ? '—' : time, unitVerdict(unit, status)),
  ];
  if (status === 'failed') lines.push('    ↳ no retry left');
  return lines;
}

function row(mark: string, name: string, pool: string, time: string, verdict: string): string {
  return `  ${mark} ${padToWidth(name, NAME_WIDTH)} ${padToWidth(pool, POOL_WIDTH)} ${time.padStart(TIME_WIDTH)}   ${verdict}`;
}

function markOf(status: UnitStatus): string {
  return VIEW_MARKS[status];
}

function elapsed(step: StepState, now: number): string {
  return step.startedAt === undefined
    ? '—'
    : formatElapsed(Math.max(0, (step.endedAt ?? now) - step.startedAt));
}

function stepVerdict(step: StepState): string {
  switch (step.status) {
    case 'blocked':
      return `waits for ${(step.blockedBy ?? []).join(', ')}`;
    case 'pending':
      return 'pending';
    case 'running':
      return step.fanOut ? 'listing items' : 'running';
    case 'failed':
      return `fail · ${step.why ?? 'failed'}`;
    case 'needs-you':
      return `back to you · ${step.why ?? ''}`;
    default:
      return step.why ?? step.status;
  }
}

function unitVerdict(unit: UnitState, status: UnitStatus): string {
  switch (status) {
    case 'ok':
      return unit.schemaOk ? 'ok · output matches its schema' : 'ok';
    case 'failed':
      return `fail · ${unit.why ?? unit.kind ?? 'failed'}`;
    case 'needs-you':
      return `back to you · ${unit.why ?? unit.kind ?? ''}`;
    case 'running': {
      const last = unit.attempts[unit.attempts.length - 1];
      if (!last) return 'routing';
      const previous = unit.attempts[unit.attempts.length - 2];
      if (last.endedAt === undefined && previous?.willRetry) {
        // A retry in flight says so for as long as it runs, not only between its attempts.
        return `running · attempt ${unit.attempts.length} on ${last.poolLabel} (retry after ${retryCause(previous)})`;
      }
      return last.attempt > 1 || last.purpose !== 'run'
        ? `running · attempt ${last.attempt} (${last.purpose})`
        : 'running';
    }
    case 'skipped':
      return unit.why ?? 'skipped';
    case 'blocked':
      return 'blocked';
    default:
      return 'pending';
  }
}

/** Why the attempt before a retry failed, in a few words. */
function retryCause(attempt: AttemptRecord): string {
  if (attempt.followedBy === 'gate-retry') return 'a failed gate';
  if (attempt.followedBy === 'schema-retry') return 'a schema mismatch';
  return attempt.why ?? attempt.kind ?? 'a failure';
}
