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

const taskIdSchema = z.string().regex(PLAN_ID_PATTERN);
const commitSchema = z.string().regex(/^[0-9a-f]{40,64}$/);

/** Where a lane stands in a lead packet's lane table (the plan status, plus `handed-off`). */
export const HANDOFF_LANE_STATES = ['ready', 'waiting', 'running', 'blocked', 'handed-off', 'done'] as const;

/**
 * One row of a lead packet's lane table: a task of the plan, the agent executing it (or that
 * finished or handed it off; null when nobody took it yet), its account, its branch, where it
 * stands, and the lane's own packet when it handed off.
 */
export const handoffLaneSchema = z.strictObject({
  task: taskIdSchema,
  address: z.string().min(1).nullable(),
  pool: z.string().min(1).nullable(),
  branch: z.string().min(1).optional(),
  state: z.enum(HANDOFF_LANE_STATES),
  packet: z.string().min(1).optional(),
});

/** A merge the lead has not done yet: `branch` into `into`, at the head `branch` had when the packet was written. */
export const handoffMergeSchema = z.strictObject({
  branch: z.string().min(1),
  into: z.string().min(1),
  head: commitSchema,
  /** The task whose work the branch holds. */
  task: taskIdSchema.optional(),
});

/** The lead-packet fields: only a packet of the task `lead` carries them. */
const LEAD_PACKET_FIELDS = ['lanes', 'releaseOrder', 'pendingMerges'] as const;

/**
 * A handoff packet, `dwp-handoff/v1`: what a successor needs that the journal does not carry —
 * the intent that was in flight. Data only: never a secret, never an instruction that widens
 * authority. Where the work is (`work`) is read from git itself when the packet is written.
 *
 * A lead packet (`task: "lead"`) also carries, as structured fields (optional, so packets
 * written before them still read): `lanes` (the lane table), `releaseOrder` (the order in which
 * the lanes' tasks are merged and released, each task once) and `pendingMerges` (each with the
 * head its branch had). A lane's packet carrying one of them is not valid.
 */
export const handoffPacketSchema = z
  .strictObject({
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
    /** A lead packet's lane table. */
    lanes: z.array(handoffLaneSchema).optional(),
    /** A lead packet's release order: task ids, each once. */
    releaseOrder: z.array(taskIdSchema).optional(),
    /** A lead packet's merges not done yet. */
    pendingMerges: z.array(handoffMergeSchema).optional(),
    writtenAt: z.string().min(1),
  })
  .superRefine((packet, ctx) => {
    if (packet.task !== LEAD_TASK) {
      for (const field of LEAD_PACKET_FIELDS) {
        if (packet[field] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `only a lead packet (task "${LEAD_TASK}") carries ${field}; this packet is for task "${packet.task}"`,
          });
        }
      }
    }
    const seen = new Set<string>();
    (packet.releaseOrder ?? []).forEach((task, index) => {
      if (seen.has(task)) {
        ctx.addIssue({
          code: 'custom',
          path: ['releaseOrder', index],
          message: `task "${task}" is listed twice`,
        });
      }
      seen.add(task);
    });
  });

export type HandoffPacket = z.infer<typeof handoffPacketSchema>;
export type HandoffItem = z.input<typeof handoffItemSchema>;
export type HandoffDecision = z.infer<typeof handoffDecisionSchema>;
export type HandoffAsk = z.infer<typeof handoffAskSchema>;
export type HandoffLane = z.infer<typeof handoffLaneSchema>;
export type HandoffMerge = z.infer<typeof handoffMergeSchema>;
/** A pending merge as an author gives it: the head is read from git when omitted. */
export type HandoffMergeInput = Omit<HandoffMerge, 'head'> & { readonly head?: string };

/** The parts of a packet its author writes (the rest is read from the plan, git and the store). */
export interface HandoffContent {
  readonly done?: readonly HandoffItem[];
  readonly verified?: readonly HandoffItem[];
  readonly notVerified?: readonly HandoffItem[];
  readonly next?: readonly string[];
  readonly openAsks?: readonly HandoffAsk[];
  readonly decisions?: readonly HandoffDecision[];
  /** A lead packet's lane table (default: read from the plan's records). */
  readonly lanes?: readonly HandoffLane[];
  /** A lead packet's release order (task ids of the plan, each once). */
  readonly releaseOrder?: readonly string[];
  /** A lead packet's merges not done yet (each branch's head is read from git). */
  readonly pendingMerges?: readonly HandoffMergeInput[];
}

/** Validates what an author wrote (a packet's content file), naming the field at fault. */
export const handoffContentSchema = z.strictObject({
  done: z.array(handoffItemSchema).optional(),
  verified: z.array(handoffItemSchema).optional(),
  notVerified: z.array(handoffItemSchema).optional(),
  next: z.array(z.string().min(1)).optional(),
  openAsks: z.array(handoffAskSchema).optional(),
  decisions: z.array(handoffDecisionSchema).optional(),
  lanes: z.array(handoffLaneSchema).optional(),
  releaseOrder: z.array(taskIdSchema).optional(),
  pendingMerges: z.array(handoffMergeSchema.extend({ head: commitSchema.optional() })).optional(),
});
