import {
  type FailureKind,
  FINAL_STATUSES,
  type StepState,
  type UnitState,
  type UnitStatus,
} from '../state/run-state';
import { now } from './run-context';

/** A step's verdict as its units give it (`pending` while any unit has none). */
export interface StepVerdict {
  readonly status: UnitStatus;
  readonly kind?: FailureKind;
  readonly why?: string;
  readonly backAt?: number;
}

/** Clears a step's verdict (status `pending`, no why, kind, back-at, end or blockers) before it runs again. */
export function resetStep(step: StepState): void {
  step.status = 'pending';
  for (const key of ['blockedBy', 'why', 'kind', 'backAt', 'endedAt'] as const) delete step[key];
}

/** Clears a unit's verdict and outputs before it runs again. */
export function resetUnit(unit: UnitState): void {
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
}

/** Gives a unit its verdict. */
export function finishUnit(
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

/** A step's verdict from its unit(s): a fan-out fails if any item failed, comes back if any came back. */
export function stepVerdict(st: StepState): StepVerdict {
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
