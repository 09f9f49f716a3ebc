import { z } from 'zod';
import { PLAN_ID_PATTERN } from '../plans/plan-schema';

/** Why a packet was written (swarm-autonomy, "The handoff packet"). */
export const HANDOFF_REASONS = [
  'capacity_critical',
  'capacity_low',
  'context_pressure',
  'usage_limit',
  'lead_handover',
] as const;

export type HandoffReason = (typeof HANDOFF_REASONS)[number];

/** The task id a lead packet names: the orchestration of the plan itself. */
export const LEAD_TASK = 'lead';

/** Something done, verified or not verified, with the paths that show it. */
export const handoffItemSchema = z.strictObject({
  what: z.string().min(1),
  /** Evidence paths (logs, reports, test output), relative to the checkout or the plan. */
  evidence: z.array(z.string().min(1)).default([]),
});

/** A decision taken: the options, the choice, why, and how to reverse it. */
export const handoffDecisionSchema = z.strictObject({
  decision: z.string().min(1),
  options: z.array(z.string()).optional(),
  why: z.string().optional(),
  reverse: z.string().optional(),
});

/** An ask still open: to whom, what. */
export const handoffAskSchema = z.strictObject({
  to: z.string().min(1),
  text: z.string().min(1),
  /** The notice id of the ask, when it was sent as one. */
  notice: z.number().int().positive().optional(),
});

/**
 * A handoff packet, `dwp-handoff/v1`: what a successor needs that the journal does not carry —
 * the intent that was in flight. Data only: never a secret, never an instruction that widens
 * authority. Where the work is (`work`) is read from git itself when the packet is written.
 */
export const handoffPacketSchema = z.strictObject({
  schema: z.literal('dwp-handoff/v1'),
  plan: z.strictObject({
    id: z.string().regex(PLAN_ID_PATTERN),
    /** The claiming repository (its main worktree). */
    repo: z.string().min(1),
  }),
  /** The live contract when the packet was written: its digest (checked on accept) and goal. */
  contract: z.strictObject({
    digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
    goal: z.string(),
  }),
  task: z.string().regex(PLAN_ID_PATTERN),
  step: z.string().min(1),
  reason: z.enum(HANDOFF_REASONS),
  work: z.strictObject({
    repository: z.string().min(1),
    checkout: z.string().min(1),
    branch: z.string().min(1),
    head: z.string().regex(/^[0-9a-f]{40,64}$/),
    upstream: z.string().nullable(),
    pushed: z.boolean(),
    uncommitted: z.array(z.string()),
  }),
  done: z.array(handoffItemSchema).default([]),
  verified: z.array(handoffItemSchema).default([]),
  notVerified: z.array(handoffItemSchema).default([]),
  /** The next steps, in order. */
  next: z.array(z.string().min(1)).default([]),
  openAsks: z.array(handoffAskSchema).default([]),
  decisions: z.array(handoffDecisionSchema).default([]),
  /** The lead and its epoch when the packet was written (null when the plan has no lead record). */
  lead: z.strictObject({ address: z.string().min(1), epoch: z.number().int().positive() }).nullable(),
  /** Who wrote it, on which account. */
  author: z.strictObject({ address: z.string().min(1), pool: z.string().nullable() }),
  /** The author's capacity when it wrote the packet, when known. */
  capacity: z
    .strictObject({
      verdict: z.enum(['ok', 'low', 'critical', 'unknown']),
      freePct: z.number().nullable(),
      line: z.string(),
    })
    .optional(),
  writtenAt: z.string().min(1),
});

export type HandoffPacket = z.infer<typeof handoffPacketSchema>;
export type HandoffItem = z.input<typeof handoffItemSchema>;
export type HandoffDecision = z.infer<typeof handoffDecisionSchema>;
export type HandoffAsk = z.infer<typeof handoffAskSchema>;

/** The parts of a packet its author writes (the rest is read from the plan, git and the store). */
export interface HandoffContent {
  readonly done?: readonly HandoffItem[];
  readonly verified?: readonly HandoffItem[];
  readonly notVerified?: readonly HandoffItem[];
  readonly next?: readonly string[];
  readonly openAsks?: readonly HandoffAsk[];
  readonly decisions?: readonly HandoffDecision[];
}

/** Validates what an author wrote (a packet's content file), naming the field at fault. */
export const handoffContentSchema = z.strictObject({
  done: z.array(handoffItemSchema).optional(),
  verified: z.array(handoffItemSchema).optional(),
  notVerified: z.array(handoffItemSchema).optional(),
  next: z.array(z.string().min(1)).optional(),
  openAsks: z.array(handoffAskSchema).optional(),
  decisions: z.array(handoffDecisionSchema).optional(),
});
