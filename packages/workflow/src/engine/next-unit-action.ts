import type { OutputSchemaProblem } from '../program/output-schema';
import type { FailureKind } from '../state/run-state';
import { NEEDS_YOU_KINDS } from './step-dispatcher';

/**
 * A failure the unit executor keeps while it retries (a failed gate, an answer that missed its
 * `outputSchema`): if the retry cannot even start, the unit ends with this failure, not the pick's.
 */
export interface KeptFailure {
  readonly kind: FailureKind;
  readonly why: string;
  readonly schemaErrors?: readonly OutputSchemaProblem[];
}

/** What one check of a unit's attempt found, in the order the executor runs them. */
export type UnitCheck =
  | {
      /** The dispatch of the unit (routing, attempts, dispatch's own retries) came back. */
      readonly stage: 'dispatch';
      readonly ok: boolean;
      /** Dispatch's outcome kind (`ok`, `canceled`, `no-pool`, `auth`, …). */
      readonly kind: string;
      readonly why?: string;
      readonly backAt?: number;
      /** How many attempts started (0: no pool could take the unit). */
      readonly attempts: number;
      /** The `· no retry:` list of a pick that found no pool (`<pool> <reason>; …`). */
      readonly noRetry: string;
    }
  | {
      /** The `files` check; `outside` is the verdict's why when the unit changed files it may not. */
      readonly stage: 'files';
      readonly outside?: string;
    }
  | {
      readonly stage: 'gate';
      readonly ok: boolean;
      readonly why: string;
      /** The pool the passing attempt ran on (null: no pool, so no gate retry on it). */
      readonly poolId: string | null;
    }
  | {
      /** The answer against the step's `outputSchema`; no problems means it matched. */
      readonly stage: 'schema';
      readonly problems: readonly OutputSchemaProblem[];
      readonly why: string;
    };

/** What the executor's retry loop knows besides the check. */
export interface UnitLoopContext {
  /** The run was stopped (its signal fired). */
  readonly aborted: boolean;
  /** Retries of the step's `retryAttempts` not yet spent. */
  readonly retriesLeft: number;
  /** The one schema retry a unit gets was already used. */
  readonly schemaRetried: boolean;
  /** The failure of the previous try, while a gate or schema retry is under way. */
  readonly kept?: KeptFailure;
}

/** The unit's next action. */
export type UnitNextAction =
  /** Stop without a verdict (the run was stopped; resume runs the unit again). */
  | { readonly action: 'leave-pending' }
  /** Run the next check (after the last one: the unit is ok). */
  | { readonly action: 'next-check' }
  | {
      readonly action: 'finish';
      readonly status: 'failed' | 'needs-you';
      readonly kind: FailureKind;
      readonly why: string;
      readonly backAt?: number;
      readonly schemaErrors?: readonly OutputSchemaProblem[];
    }
  | {
      /** Dispatch again with a note: a gate retry pins the pool that ran it, a schema retry the step's own pin. */
      readonly action: 'retry';
      readonly purpose: 'gate-retry' | 'schema-retry';
      readonly pin: 'same-pool' | 'step-pin';
      /** A gate retry spends one of the step's retries; a schema retry is extra. */
      readonly spendsRetry: boolean;
      readonly kept: KeptFailure;
    };

/**
 * The policy of a workflow unit's retry loop (packages/workflow/README.md, "What running a step means"):
 * a check and the loop's context in, the next action out. Pure; the unit executor carries it out.
 */
export function nextUnitAction(check: UnitCheck, context: UnitLoopContext): UnitNextAction {
  switch (check.stage) {
    case 'dispatch': {
      if (check.kind === 'canceled' || (context.aborted && !check.ok)) return { action: 'leave-pending' };
      if (check.ok) return { action: 'next-check' };
      const needsYou = NEEDS_YOU_KINDS.has(check.kind);
      const kept = context.kept;
      if (kept && check.attempts === 0 && needsYou) {
        return {
          action: 'finish',
          status: 'failed',
          kind: kept.kind,
          why: `${kept.why} · no retry: ${check.noRetry}`,
          ...(kept.schemaErrors ? { schemaErrors: kept.schemaErrors } : {}),
        };
      }
      return {
        action: 'finish',
        status: needsYou ? 'needs-you' : 'failed',
        kind: check.kind as FailureKind,
        why: check.why ?? check.kind,
        ...(check.backAt === undefined ? {} : { backAt: check.backAt }),
      };
    }
    case 'files':
      return check.outside === undefined
        ? { action: 'next-check' }
        : { action: 'finish', status: 'failed', kind: 'files', why: check.outside };
    case 'gate': {
      if (check.ok) return { action: 'next-check' };
      if (context.aborted) return { action: 'leave-pending' };
      if (context.retriesLeft > 0 && check.poolId !== null) {
        return {
          action: 'retry',
          purpose: 'gate-retry',
          pin: 'same-pool',
          spendsRetry: true,
          kept: { kind: 'gate', why: check.why },
        };
      }
      return { action: 'finish', status: 'failed', kind: 'gate', why: check.why };
    }
    case 'schema': {
      if (check.problems.length === 0) return { action: 'next-check' };
      if (!context.schemaRetried) {
        return {
          action: 'retry',
          purpose: 'schema-retry',
          pin: 'step-pin',
          spendsRetry: false,
          kept: { kind: 'schema', why: check.why, schemaErrors: check.problems },
        };
      }
      return {
        action: 'finish',
        status: 'failed',
        kind: 'schema',
        why: check.why,
        schemaErrors: check.problems,
      };
    }
  }
}
