import { createHash } from 'node:crypto';
import { canonicalJson } from '@bullswarm/connectors/internal';
import { z } from 'zod';

/** Plan and task ids: a letter or digit, then letters, digits, `.`, `_` or `-` (at most 64). */
export const PLAN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const idSchema = z
  .string()
  .regex(PLAN_ID_PATTERN, 'expected a letter or digit, then letters, digits, ".", "_" or "-" (at most 64)');

/** A gate: a command run in the task's checkout (argv, never a shell); it passes on exit 0. */
export const gateSchema = z.strictObject({
  /** The command and its arguments, e.g. `["node", "gates/check-api.mjs"]`. */
  command: z.array(z.string().min(1)).min(1),
  /** Working directory relative to the checkout (default the checkout itself). */
  cwd: z.string().optional(),
});

/** One task of a plan. */
export const planTaskSchema = z.strictObject({
  id: idSchema,
  title: z.string().optional(),
  /** The lane the work runs in (default `build`). */
  lane: z.enum(['analyze', 'build', 'chore']).default('build'),
  /** Effort tier (default the lane's default). */
  tier: z.string().optional(),
  /** Which accounts may run it: a connector id, a provider family, or `any` (default). */
  kind: z.string().default('any'),
  /** Tasks that must be done first. */
  dependsOn: z.array(idSchema).default([]),
  /** The task's gate. */
  gate: gateSchema.optional(),
  /** Its steps in order (a packet names the step in flight). */
  steps: z.array(z.string().min(1)).default([]),
  /**
   * A long task (hours of work, or a gate that runs long): its account is picked among those of
   * known capacity first (a lead prefers known-capacity accounts for long tasks).
   */
  long: z.boolean().optional(),
});

/** How far ahead a plan waits for an account to reset when none has room (default 24 h). */
export const DEFAULT_PLAN_HORIZON = '24h';

const HORIZON_PATTERN = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$/;

/** A horizon (`5h`, `90m`, `2d`, `1d12h`) in milliseconds; undefined when it is not one (or is zero). */
export function parseHorizon(text: string): number | undefined {
  const match = HORIZON_PATTERN.exec(text.trim());
  if (match === null || text.trim() === '') return undefined;
  const [d, h, m] = match.slice(1).map((part) => Number(part ?? 0));
  const ms = (((d ?? 0) * 24 + (h ?? 0)) * 60 + (m ?? 0)) * 60_000;
  return ms > 0 ? ms : undefined;
}

/** The contract: what the plan must achieve and what it is authorized to do. Extra keys are kept. */
export const planContractSchema = z.looseObject({
  goal: z.string().min(1),
  /** What agents may do without asking (merges, tags, releases named here). */
  authorization: z.array(z.string()).default([]),
  /** Context share at which an agent hands off (default 60). */
  freshContextPct: z.number().min(1).max(100).default(60),
});

/**
 * `plans/<id>/plan.json` (schema `bullswarm-plan/v1`): the unit of continuity. See the package
 * README for the layout around it (`journal.jsonl`, `analysis_results/`).
 */
export const planSchema = z
  .strictObject({
    schema: z.literal('bullswarm-plan/v1'),
    id: idSchema,
    title: z.string().optional(),
    contract: planContractSchema,
    /**
     * The accounts the developer declared for this plan (pool ids or labels); absent = every
     * pool of the home. Work never moves to an account outside this list.
     */
    pools: z.array(z.string().min(1)).optional(),
    /**
     * How far ahead the swarm waits for a declared account to reset when none has room (`5h`,
     * `90m`, `2d`, `1d12h`; default {@link DEFAULT_PLAN_HORIZON}): past it the plan parks with the
     * soonest reset recorded and a C7 escalation (capacity exhausted).
     */
    horizon: z
      .string()
      .refine((text) => parseHorizon(text) !== undefined, {
        message: 'expected a duration such as 5h, 90m, 2d or 1d12h (more than zero)',
      })
      .optional(),
    tasks: z.array(planTaskSchema).min(1),
  })
  .superRefine((plan, ctx) => {
    const ids = new Set<string>();
    plan.tasks.forEach((task, index) => {
      if (ids.has(task.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['tasks', index, 'id'],
          message: `duplicate task id "${task.id}"`,
        });
      }
      ids.add(task.id);
    });
    plan.tasks.forEach((task, index) => {
      task.dependsOn.forEach((dep, depIndex) => {
        if (!ids.has(dep)) {
          ctx.addIssue({
            code: 'custom',
            path: ['tasks', index, 'dependsOn', depIndex],
            message: `no task "${dep}" in this plan (tasks: ${[...ids].join(', ')})`,
          });
        }
      });
    });
    const cycle = findCycle(plan.tasks);
    if (cycle) {
      ctx.addIssue({ code: 'custom', path: ['tasks'], message: `dependency cycle: ${cycle.join(' -> ')}` });
    }
  });

export type Plan = z.infer<typeof planSchema>;
export type PlanInput = z.input<typeof planSchema>;
export type PlanTask = z.infer<typeof planTaskSchema>;
export type PlanGate = z.infer<typeof gateSchema>;

function findCycle(tasks: readonly { id: string; dependsOn: readonly string[] }[]): string[] | undefined {
  const deps = new Map(tasks.map((t) => [t.id, t.dependsOn]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'visiting') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'visiting');
    stack.push(id);
    for (const dep of deps.get(id) ?? []) {
      if (!deps.has(dep)) continue;
      const found = visit(dep);
      if (found) return found;
    }
    stack.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const id of deps.keys()) {
    const found = visit(id);
    if (found) return found;
  }
  return undefined;
}

/** A plan's horizon in milliseconds (its `horizon`, else {@link DEFAULT_PLAN_HORIZON}). */
export function planHorizonMs(plan: Pick<Plan, 'horizon'>): number {
  return parseHorizon(plan.horizon ?? DEFAULT_PLAN_HORIZON)!;
}

/**
 * The identity of a plan's live contract: `sha256:` + the hash of its canonical JSON. A packet
 * records it; accepting the packet checks it against the plan as it is now.
 */
export function contractDigest(contract: Plan['contract']): string {
  return `sha256:${createHash('sha256').update(canonicalJson(contract)).digest('hex')}`;
}

/**
 * The tasks that depend on `taskId`, directly or through others (its dependency chain downstream).
 */
export function dependentsOf(plan: Pick<Plan, 'tasks'>, taskId: string): string[] {
  const found = new Set<string>();
  const queue = [taskId];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const task of plan.tasks) {
      if (task.dependsOn.includes(current) && !found.has(task.id)) {
        found.add(task.id);
        queue.push(task.id);
      }
    }
  }
  return [...found];
}
