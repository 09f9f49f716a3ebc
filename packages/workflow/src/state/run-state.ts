import { z } from 'zod';

/** The version of the state.json format this package reads and writes. */
export const STATE_VERSION = 1;

/**
 * Status of a step or a fan-out item.
 * - `pending`: not started (or interrupted before a verdict; it runs on resume).
 * - `running`: in flight.
 * - `ok`: verified (answer, files within `files`, gate passed, output matches its schema). Never runs again.
 * - `failed`: a crash, stall, sign-in failure, failed gate, files outside `files`, or a schema mismatch
 *   that its retries did not fix.
 * - `needs-you`: came back to the user at once (usage limit, spent throttle backoff, no eligible pool),
 *   with why and back at.
 * - `blocked`: a dependency did not finish (⋈); it runs when the dependency does.
 * - `skipped`: a fan-out item equal to an earlier item of the same step (same fingerprint): it shares
 *   that item's verdict instead of running twice.
 */
export const unitStatusSchema = z.enum([
  'pending',
  'running',
  'ok',
  'failed',
  'needs-you',
  'blocked',
  'skipped',
]);
/** Status of a step or a fan-out item. */
export type UnitStatus = z.infer<typeof unitStatusSchema>;

/** Statuses that are a recorded final verdict. */
export const FINAL_STATUSES: ReadonlySet<UnitStatus> = new Set(['ok', 'failed', 'needs-you', 'skipped']);

/** Why a unit ended without success, beyond dispatch's own kinds. */
export const failureKindSchema = z.enum([
  'quota',
  'throttle',
  'auth',
  'process',
  'stalled',
  'empty',
  'timeout',
  'canceled',
  'unavailable',
  'no-eligible-pool',
  'gate',
  'files',
  'schema',
  'template',
  'items',
  'engine',
]);
/** Why a unit ended without success. */
export type FailureKind = z.infer<typeof failureKindSchema>;

/** One attempt of a unit, as recorded. */
export const attemptRecordSchema = z.object({
  attempt: z.number().int(),
  /** `run`: the first dispatch (and dispatch's own retries); `gate-retry`, `schema-retry`: engine-driven. */
  purpose: z.enum(['run', 'gate-retry', 'schema-retry']),
  poolId: z.string(),
  poolLabel: z.string(),
  providerFamily: z.string().optional(),
  model: z.string().nullable(),
  reason: z.string(),
  outputFile: z.string(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  kind: z.string().optional(),
  why: z.string().optional(),
  willRetry: z.boolean().optional(),
  /** The engine follows this attempt with a gate or schema retry (`retryWhy` says why). */
  followedBy: z.enum(['gate-retry', 'schema-retry']).optional(),
  retryWhy: z.string().optional(),
  exitCode: z.number().nullable().optional(),
  stalled: z.boolean().optional(),
  backAt: z.number().optional(),
});
/** One attempt of a unit. */
export type AttemptRecord = z.infer<typeof attemptRecordSchema>;

/** A schema mismatch of a unit's answer. */
export const schemaErrorSchema = z.object({ path: z.string(), message: z.string() });

/** A unit: one dispatched piece of work (a step, or one item of a fan-out). */
export const unitStateSchema = z.object({
  status: unitStatusSchema,
  /** The dispatch action (`<step>` or `<step>.<slot>`), used in attempt file names. */
  action: z.string(),
  /** Content fingerprint (rendered prompt, item, dependency outputs, step settings). */
  fingerprint: z.string().optional(),
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
  /** The pool of the last attempt. */
  poolId: z.string().optional(),
  poolLabel: z.string().optional(),
  /** The route reason line of the last attempt. */
  reason: z.string().optional(),
  kind: failureKindSchema.optional(),
  why: z.string().optional(),
  backAt: z.number().optional(),
  attempts: z.array(attemptRecordSchema),
  /** Automatic retries spent (crash, stall, sign-in failure, failed gate). */
  retriesUsed: z.number().int().optional(),
  /** The answer text of the successful attempt (kept short; the attempt file has it all). */
  answerPreview: z.string().optional(),
  /** Structured output (`outputs.<id>.data`). */
  data: z.unknown().optional(),
  schemaOk: z.boolean().optional(),
  schemaErrors: z.array(schemaErrorSchema).optional(),
  /** Files of the work tree the unit changed (attributed to it). */
  changedFiles: z.array(z.string()).optional(),
});
/** A unit: one dispatched piece of work. */
export type UnitState = z.infer<typeof unitStateSchema>;

/** A fan-out item. */
export const itemStateSchema = unitStateSchema.extend({
  /** Stable number of the item within its step (its action is `<step>.<slot>`). */
  slot: z.number().int(),
  item: z.unknown(),
  /** A short label of the item for the live view. */
  label: z.string(),
  /** For a skipped duplicate: the slot it shares a verdict with. */
  sameAs: z.number().int().optional(),
});
/** A fan-out item. */
export type ItemState = z.infer<typeof itemStateSchema>;

/** One step of a run. */
export const stepStateSchema = z.object({
  id: z.string(),
  level: z.number().int(),
  fanOut: z.boolean(),
  status: unitStatusSchema,
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
  kind: failureKindSchema.optional(),
  why: z.string().optional(),
  backAt: z.number().optional(),
  /** Steps this one waits for (when blocked). */
  blockedBy: z.array(z.string()).optional(),
  /** The step's own unit (not a fan-out). */
  unit: unitStateSchema.optional(),
  /** The items of a fan-out, in the current discovery order. */
  items: z.array(itemStateSchema).optional(),
  /** The next slot number of a fan-out. */
  nextSlot: z.number().int().optional(),
  /**
   * A pin for the next run of this step (a restart naming a pool: `step-restart`). Files written
   * before the pin sources were domain values say `step restart`, read as `step-restart`.
   */
  pin: z
    .object({
      poolId: z.string(),
      source: z.union([
        z.enum(['operator', 'step-restart', 'gate-retry']),
        z.literal('step restart').transform(() => 'step-restart' as const),
      ]),
    })
    .optional(),
});
/** One step of a run. */
export type StepState = z.infer<typeof stepStateSchema>;

/** The run as a whole. */
export const runStatusSchema = z.enum(['running', 'finished', 'interrupted']);
/** The run as a whole. */
export type RunStatus = z.infer<typeof runStatusSchema>;

/** `$BULLSWARM_HOME/workflows/<runId>/state.json`. */
export const runStateSchema = z.object({
  stateVersion: z.literal(STATE_VERSION),
  engineVersion: z.string(),
  runId: z.string(),
  name: z.string().optional(),
  programFile: z.string().optional(),
  /** The work tree (absolute). */
  cwd: z.string(),
  status: runStatusSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
  /** When the run (or its last resume) ended. */
  endedAt: z.number().optional(),
  /** Wall time spent driving the run, summed over start and resumes (ms). */
  activeMs: z.number().optional(),
  /** When the current drive (start, resume, restart) began; absent when no process drives the run. */
  drivenSince: z.number().optional(),
  /** The process driving the run right now. */
  owner: z.object({ pid: z.number().int(), startTime: z.string().optional() }).optional(),
  options: z.object({
    concurrency: z.number().int(),
    workerPool: z.string().optional(),
  }),
  inputs: z.record(z.string(), z.unknown()),
  levels: z.array(z.array(z.string())),
  /** The last event (events.jsonl `seq`) this file includes; resume replays newer ones. */
  lastEventSeq: z.number().int(),
  steps: z.array(stepStateSchema),
});
/** `$BULLSWARM_HOME/workflows/<runId>/state.json`. */
export type RunState = z.infer<typeof runStateSchema>;

/** Counts of a run's units (items count one each; a fan-out step itself does not count). */
export interface RunCounts {
  readonly ok: number;
  readonly failed: number;
  readonly needsYou: number;
  readonly blocked: number;
  readonly running: number;
  readonly pending: number;
  readonly skipped: number;
  readonly total: number;
}

/** Counts of units by status. */
export function countUnits(state: Pick<RunState, 'steps'>): RunCounts {
  const counts = { ok: 0, failed: 0, needsYou: 0, blocked: 0, running: 0, pending: 0, skipped: 0, total: 0 };
  const add = (status: UnitStatus) => {
    counts.total++;
    if (status === 'needs-you') counts.needsYou++;
    else counts[status]++;
  };
  for (const step of state.steps) {
    if (step.fanOut && step.items !== undefined && step.items.length > 0) {
      for (const item of step.items)
        add(item.status === 'pending' && step.status === 'blocked' ? 'blocked' : item.status);
    } else {
      add(step.status);
    }
  }
  return counts;
}
